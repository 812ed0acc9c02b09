#include "attention/io/int8_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace attention {

namespace {
// A row's scale, as a float32 (the largest float32 if the row goes past it), and the row's numbers in its steps.
float row_scale(const Matrix& m, long r) {
  const double s = m.row(r).cwiseAbs().maxCoeff() / 127;
  return static_cast<float>(std::min(s, static_cast<double>(std::numeric_limits<float>::max())));
}

std::int8_t step_of(double x, double scale) {
  if (!(scale > 0)) return 0;
  return static_cast<std::int8_t>(std::clamp(std::nearbyint(x / scale), -127.0, 127.0));
}
}  // namespace

Matrix int8_rounded(const Matrix& m) {
  Matrix out(m.rows(), m.cols());
  for (long r = 0; r < m.rows(); ++r) {
    const double s = row_scale(m, r);
    for (long c = 0; c < m.cols(); ++c) out(r, c) = step_of(m(r, c), s) * s;
  }
  return out;
}

void append_int8_rows(std::string& out, const Matrix& m) {
  std::vector<double> scales;
  for (long r = 0; r < m.rows(); ++r) {
    const float s = row_scale(m, r);
    std::uint32_t bits;
    std::memcpy(&bits, &s, 4);
    for (int b = 0; b < 4; ++b) out += static_cast<char>(bits >> (8 * b) & 0xFF);  // little-endian
    scales.push_back(s);
  }
  for (long r = 0; r < m.rows(); ++r) {
    for (long c = 0; c < m.cols(); ++c) out += static_cast<char>(step_of(m(r, c), scales[static_cast<std::size_t>(r)]));
  }
}

Matrix int8_rows_at(const std::string& bytes, std::size_t at, long rows, long cols) {
  Matrix m(rows, cols);
  const std::size_t values = at + 4 * static_cast<std::size_t>(rows);
  for (long r = 0; r < rows; ++r) {
    std::uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at + 4 * static_cast<std::size_t>(r) + b])) << (8 * b);
    float scale;
    std::memcpy(&scale, &bits, 4);
    const double s = scale;
    for (long c = 0; c < cols; ++c) {
      m(r, c) = static_cast<std::int8_t>(bytes[values + static_cast<std::size_t>(r * cols + c)]) * s;
    }
  }
  return m;
}

}  // namespace attention
