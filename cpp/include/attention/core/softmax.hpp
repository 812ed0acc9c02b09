#pragma once
// Turning scores into weights. Stable for any finite score (the row maximum is subtracted
// first, so scores of 1e6 need no float128 as seed 000 did); a row whose every position is
// masked gets all-zero weights instead of NaN, and is reported to the caller.
#include <vector>

#include "attention/core/scalar.hpp"

namespace attention {

// visible(i, j) != 0 keeps score (i, j); pass an empty matrix for "all visible".
template <class T>
MatrixT<T> softmax_rows(const MatrixT<T>& scores, const MatrixT<T>& visible, std::vector<long>* empty_rows);

// One-hot on the highest visible score of each row, the first one on ties.
template <class T>
MatrixT<T> hardmax_rows(const MatrixT<T>& scores, const MatrixT<T>& visible, std::vector<long>* empty_rows);

}  // namespace attention
