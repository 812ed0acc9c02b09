#pragma once
// The training model's matrix products: C (n, m) = A (n, k) B (k, m), or C += A B, where A
// and B are small (d_model at most 64, a head's (n, n) attention), new at every step, and
// either may be a transposed view or a block of a wider matrix. Eigen's general product packs
// both sides into panels on every call, and V8's code for its 15-register kernel moves vectors
// to and from the stack (see panel_product.hpp): in Chromium a training step spent 163 us in
// that kernel and 47 in the packing, against 98 and 19 natively. This loop reads A and B where
// they lie: 4 rows of C, two vectors wide, in 8 sums (11 vectors live), the depth in order.
// Only a B read across its rows (a transposed view) is copied first, into rows. Timed in turns
// against Eigen's products, training copy went from 4100 to 5300 steps/s natively and from 2500
// to 4050 in Node.
#include <cstring>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "attention/core/scalar.hpp"
#include "attention/kernel/simd.hpp"

namespace attention {

namespace small_product_detail {

template <class T>
struct Operand {  // element (i, j) at p[i * rs + j * cs]
  const T* p;
  long rs, cs;
};

// R rows of C from R rows of A (A.p at the first), the columns two vectors at a time, then one,
// then one number at a time; k >= 1. The depth loop steps pointers rather than indexing by kk:
// indexed, Chromium's training steps were 8% slower (natively the same). Written where it is
// called; shared_rows is the one copy that callers share.
template <class T, int R>
__attribute__((always_inline)) inline void rows(Operand<T> a, Operand<T> b, long k, long m, T* c, long ldc, bool add) {
  using Vec = typename simd::Vector<T>::type;
  constexpr long kLanes = simd::Vector<T>::kLanes;
  const auto load = [](const T* p) { Vec v; std::memcpy(&v, p, sizeof v); return v; };
  long j = 0;
  for (; j + 2 * kLanes <= m; j += 2 * kLanes) {
    Vec sum[R][2] = {};
    const T* ap = a.p;
    const T* bp = b.p + j;
    for (long kk = 0;;) {
      const Vec b0 = load(bp), b1 = load(bp + kLanes);
      for (int r = 0; r < R; ++r) {
        const Vec x = simd::Vector<T>::splat(ap[r * a.rs]);
        sum[r][0] += x * b0;
        sum[r][1] += x * b1;
      }
      if (++kk == k) break;  // before the step, which would point past A's or B's end
      ap += a.cs, bp += b.rs;
    }
    for (int r = 0; r < R; ++r) {
      T* out = c + r * ldc + j;
      if (add) sum[r][0] += load(out), sum[r][1] += load(out + kLanes);
      std::memcpy(out, &sum[r][0], sizeof(Vec));
      std::memcpy(out + kLanes, &sum[r][1], sizeof(Vec));
    }
  }
  for (; j + kLanes <= m; j += kLanes) {
    Vec sum[R] = {};
    const T* ap = a.p;
    const T* bp = b.p + j;
    for (long kk = 0;;) {
      const Vec b0 = load(bp);
      for (int r = 0; r < R; ++r) sum[r] += simd::Vector<T>::splat(ap[r * a.rs]) * b0;
      if (++kk == k) break;
      ap += a.cs, bp += b.rs;
    }
    for (int r = 0; r < R; ++r) {
      T* out = c + r * ldc + j;
      if (add) sum[r] += load(out);
      std::memcpy(out, &sum[r], sizeof(Vec));
    }
  }
  for (; j < m; ++j) {
    for (int r = 0; r < R; ++r) {
      T sum = 0;
      for (long kk = 0; kk < k; ++kk) sum += a.p[r * a.rs + kk * a.cs] * b.p[kk * b.rs + j];
      c[r * ldc + j] = add ? c[r * ldc + j] + sum : sum;
    }
  }
}

template <class T, int R>
void shared_rows(Operand<T> a, Operand<T> b, long k, long m, T* c, long ldc, bool add) {
  rows<T, R>(a, b, k, m, c, ldc, add);
}

// A whole matrix or a whole matrix transposed, as the model's large products take them: the
// batch's activations by a weight, and the weights' gradients.
template <class D>
struct Whole : std::is_same<D, MatrixT<typename D::Scalar>> {};
template <class M>
struct Whole<Eigen::Transpose<M>> : std::is_same<std::remove_const_t<M>, MatrixT<typename M::Scalar>> {};

}  // namespace small_product_detail

// C = A B, or C += A B when add; C (A.rows(), B.cols()) already sized, its rows contiguous (a
// row-major matrix or a block of one). A and B of any strides; neither may overlap C.
template <class DA, class DB, class DC>
void multiply_small(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B, DC&& C, bool add = false) {
  using T = typename DA::Scalar;
  using small_product_detail::Operand;
  static_assert(std::decay_t<DC>::IsRowMajor, "C's rows are written a vector at a time");
  const long n = A.rows(), k = A.cols(), m = B.cols();
  eigen_assert(B.rows() == k && C.rows() == n && C.cols() == m);
  if (k == 0) {  // an empty A or B may have no storage at all
    if (!add) C.setZero();
    return;
  }
  const Operand<T> a{A.derived().data(), A.rowStride(), A.colStride()};
  Operand<T> b{B.derived().data(), B.rowStride(), B.colStride()};
  if (b.cs != 1 && m > 1) {  // B's rows are not contiguous: copied into rows m apart (B (k, m) is at most 64 x 64 here)
    thread_local std::vector<T> copy;  // not named rows: that is the loop above
    copy.resize(static_cast<std::size_t>(k * m));
    for (long kk = 0; kk < k; ++kk) {
      for (long j = 0; j < m; ++j) copy[static_cast<std::size_t>(kk * m + j)] = b.p[kk * b.rs + j * b.cs];
    }
    b = {copy.data(), m, 1};
  }
  T* c = C.derived().data();
  const long ldc = C.rowStride();
  const auto from = [&](long i) { return Operand<T>{a.p + i * a.rs, a.rs, a.cs}; };  // A's rows from row i
  // A product of whole matrices has the 4-row loop written into itself; the others call the
  // shared copy. The whole-matrix products take most of a step's product time (in Chromium, sort:
  // 73 of 90 us), in a few calls of batch x positions rows; the heads' products are many small
  // calls with a dozen kinds of blocks. Timed in turns against one shared copy for all, Chromium's
  // training was 1.6-4.7% faster once warm and a fresh page's first 500 steps no slower (natively
  // the same: GCC writes the loops into their callers itself). A copy of all four row loops in
  // every multiply_small was 2-4% faster once warm but made the first 500 steps 40% slower.
  constexpr bool kOwnLoop = small_product_detail::Whole<DA>::value && small_product_detail::Whole<DB>::value;
  long i = 0;
  for (; i + 4 <= n; i += 4) {
    if constexpr (kOwnLoop) small_product_detail::rows<T, 4>(from(i), b, k, m, c + i * ldc, ldc, add);
    else small_product_detail::shared_rows<T, 4>(from(i), b, k, m, c + i * ldc, ldc, add);
  }
  switch (n - i) {  // the last 1 to 3 rows
    case 3: small_product_detail::shared_rows<T, 3>(from(i), b, k, m, c + i * ldc, ldc, add); break;
    case 2: small_product_detail::shared_rows<T, 2>(from(i), b, k, m, c + i * ldc, ldc, add); break;
    case 1: small_product_detail::shared_rows<T, 1>(from(i), b, k, m, c + i * ldc, ldc, add); break;
    default: break;
  }
}

// A B as a new matrix.
template <class DA, class DB>
MatrixT<typename DA::Scalar> multiply_small(const Eigen::MatrixBase<DA>& A, const Eigen::MatrixBase<DB>& B) {
  MatrixT<typename DA::Scalar> C(A.rows(), B.cols());
  multiply_small(A, B, C);
  return C;
}

}  // namespace attention
