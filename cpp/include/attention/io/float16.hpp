#pragma once
// Half precision (IEEE 754 binary16) for the trained model's weights: the file, and the NumPy
// program that carries them, hold each number in two bytes. The model computes in double from
// exactly those values; half of float32's bytes cost a trained head about 5e-4 of relative error
// per weight, far below what its pattern or its scores show.
#include <cstddef>
#include <cstdint>
#include <string>

#include "attention/core/scalar.hpp"

namespace attention {

// The nearest half, ties to even, as numpy's astype(np.float16) rounds a float64; a number past
// the largest half (65504) is kept at it rather than made infinite, so that a model a run pushed
// that far still reads back. NaN stays NaN.
std::uint16_t to_float16(double x);
double from_float16(std::uint16_t half);

// Each number of m as a half, two bytes little-endian, row by row; and the half at bytes[at].
void append_float16(std::string& out, const Matrix& m);
double float16_at(const std::string& bytes, std::size_t at);

}  // namespace attention
