#pragma once
// The trained model's weights in about one byte a number: each row of a matrix as a float32 scale
// and one int8 per number (x ≈ q · s, s the row's largest |x| over 127, |q| ≤ 127). The file and
// the NumPy program hold a matrix as its rows' scales (float32, little-endian), then its numbers
// (int8), row by row; the model computes in double from exactly q · s, which a double holds
// exactly (24 bits times 8). A number is off by at most half a step, 1/254 of its row's largest
// |x|: a trained head's pattern and the model's guesses hardly move (the model card's figures
// are those of the rounded weights: the shipped model's held-out loss went from 1.776 to 1.777
// nats per character), and the weights take half float16's bytes (162 KB gzip, from 299).
#include <cstddef>
#include <string>

#include "attention/core/scalar.hpp"

namespace attention {

// m as the file holds it: every number replaced by q · s.
Matrix int8_rounded(const Matrix& m);

// m's rows' scales, four bytes each, little-endian, then its numbers, one byte each, row by row:
// rows · (cols + 4) bytes.
void append_int8_rows(std::string& out, const Matrix& m);

// The matrix of rows x cols at bytes[at] (the caller checked that rows · (cols + 4) bytes are there).
Matrix int8_rows_at(const std::string& bytes, std::size_t at, long rows, long cols);

}  // namespace attention
