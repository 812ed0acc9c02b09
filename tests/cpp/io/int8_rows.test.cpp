// The weights file's numbers: each row a float32 scale and an int8 step per number.
#include "attention/io/int8_rows.hpp"

#include <cmath>
#include <limits>

#include <catch2/catch.hpp>
#include "tolerance.hpp"

using attention::Matrix;

TEST_CASE("a row keeps each number within half a step of its row's scale, its largest at ±127 steps", "[io][int8]") {
  Matrix m(3, 5);
  m << 0.5, -1.25, 0.001, 3.0, -2.9,  //
      0, 0, 0, 0, 0,                  // a row of zeros stays zeros (no scale to divide by)
      -1e-6, 2e-6, 7e-7, 0, -3e-6;    // a small row keeps its own steps
  const Matrix r = attention::int8_rounded(m);
  for (long i = 0; i < m.rows(); ++i) {
    const double top = m.row(i).cwiseAbs().maxCoeff();
    const double scale = static_cast<float>(top / 127);
    for (long j = 0; j < m.cols(); ++j) {
      INFO(i << "," << j);
      CHECK(std::abs(r(i, j) - m(i, j)) <= scale / 2 * (1 + tol::float_few_roundings));
      CHECK(r(i, j) / (scale > 0 ? scale : 1) == std::nearbyint(r(i, j) / (scale > 0 ? scale : 1)));  // a whole number of steps
    }
  }
  CHECK(r(0, 3) == Approx(3.0).epsilon(tol::float_few_roundings));  // the largest is 127 steps, up to the scale's float32 rounding
  CHECK(r.row(1).isZero(0));
  CHECK(r(2, 4) < 0);
}

TEST_CASE("the bytes are the rows' scales, then a byte a number, and read back as int8_rounded", "[io][int8]") {
  Matrix m(2, 3);
  m << 1, -0.5, 0.25,  //
      -127, 64, 0;
  std::string bytes = "xx";  // read from an offset, as the file reads each tensor after the ones before it
  attention::append_int8_rows(bytes, m);
  REQUIRE(bytes.size() == 2 + 2 * (3 + 4));
  CHECK(bytes.substr(2 + 4, 4) == std::string("\x00\x00\x80\x3F", 4));  // row 1's scale, 127 / 127: 1.0f, little-endian
  CHECK(static_cast<signed char>(bytes[2 + 8]) == 127);       // row 0's 1 is its largest: 127 steps
  CHECK(static_cast<signed char>(bytes[2 + 8 + 3]) == -127);  // row 1's -127
  CHECK(attention::int8_rows_at(bytes, 2, 2, 3) == attention::int8_rounded(m));
  CHECK(attention::int8_rounded(attention::int8_rounded(m)) == attention::int8_rounded(m));  // rounded numbers stay put
}

TEST_CASE("a number too large for a float32 scale is kept at the largest step", "[io][int8]") {
  Matrix m(1, 2);
  m << 1e300, -1e300;
  const Matrix r = attention::int8_rounded(m);
  const double largest = std::numeric_limits<float>::max();
  CHECK(r(0, 0) == 127 * largest);
  CHECK(r(0, 1) == -127 * largest);
}
