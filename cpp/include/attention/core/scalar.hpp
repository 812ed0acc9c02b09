#pragma once
// The numeric types of the core. Double by default so that traces match NumPy bit for bit
// where the arithmetic allows; the math is templated on the scalar so a float path exists.
#include <Eigen/Core>

namespace attention {

using Scalar = double;

// Row-major like NumPy, so a matrix's memory reads as the JSON array of rows.
template <class T>
using MatrixT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using VectorT = Eigen::Matrix<T, Eigen::Dynamic, 1>;

using Matrix = MatrixT<Scalar>;
using Vector = VectorT<Scalar>;

}  // namespace attention
