#include "attention/core/softmax.hpp"

#include <cmath>
#include <limits>

namespace attention {

namespace {
template <class T>
bool seen(const MatrixT<T>& visible, long i, long j) {
  return visible.size() == 0 || visible(i, j) != T(0);
}
}  // namespace

template <class T>
MatrixT<T> softmax_rows(const MatrixT<T>& scores, const MatrixT<T>& visible, std::vector<long>* empty_rows) {
  MatrixT<T> w = MatrixT<T>::Zero(scores.rows(), scores.cols());
  for (long i = 0; i < scores.rows(); ++i) {
    T top = -std::numeric_limits<T>::infinity();
    for (long j = 0; j < scores.cols(); ++j) {
      if (seen(visible, i, j) && scores(i, j) > top) top = scores(i, j);
    }
    if (top == -std::numeric_limits<T>::infinity()) {
      if (empty_rows) empty_rows->push_back(i);
      continue;
    }
    T sum = 0;
    for (long j = 0; j < scores.cols(); ++j) {
      if (!seen(visible, i, j)) continue;
      w(i, j) = std::exp(scores(i, j) - top);  // <= 1, and the top entry is exactly 1
      sum += w(i, j);
    }
    w.row(i) /= sum;  // sum >= 1: never a division by zero
  }
  return w;
}

template <class T>
MatrixT<T> hardmax_rows(const MatrixT<T>& scores, const MatrixT<T>& visible, std::vector<long>* empty_rows) {
  MatrixT<T> w = MatrixT<T>::Zero(scores.rows(), scores.cols());
  for (long i = 0; i < scores.rows(); ++i) {
    long best = -1;
    for (long j = 0; j < scores.cols(); ++j) {
      if (seen(visible, i, j) && (best < 0 || scores(i, j) > scores(i, best))) best = j;
    }
    if (best < 0) {
      if (empty_rows) empty_rows->push_back(i);
      continue;
    }
    w(i, best) = T(1);
  }
  return w;
}

template MatrixT<double> softmax_rows(const MatrixT<double>&, const MatrixT<double>&, std::vector<long>*);
template MatrixT<float> softmax_rows(const MatrixT<float>&, const MatrixT<float>&, std::vector<long>*);
template MatrixT<double> hardmax_rows(const MatrixT<double>&, const MatrixT<double>&, std::vector<long>*);
template MatrixT<float> hardmax_rows(const MatrixT<float>&, const MatrixT<float>&, std::vector<long>*);

}  // namespace attention
