#pragma once
// The matrix products of the attention kernel, A (n, k) * B (k, m), in one register-blocked
// loop over simd.hpp's vectors, so the native and the wasm builds run the same code.
// B is kept in panels two vectors wide (8 floats or 4 doubles in 128-bit vectors), depth-major:
// each step of the depth loads two vectors of B and broadcasts one number of A for each of 4
// rows into 8 sums, 12 vectors live in all. Eigen's panel kernel keeps 15 live (8 sums, 2
// vectors of A, 4 broadcasts of B and a temporary); V8 on x86-64 can allocate 15 vector
// registers, and its code for Eigen's unrolled loop moves vectors to and from the stack.
// In wasm this kernel beats Eigen's on the projections (X (1024, 512) times W (512, 1536));
// natively Eigen's stays as fast (BENCHMARKS.md, the kernel's rows).
// A's rows are copied, 4 at a time, interleaved (the 4 numbers of one depth side by side), so
// the loop reads them at one address with fixed offsets: wasm has no scaled-index addressing,
// and V8 spent two instructions per row and step computing each row's address, about a fifth
// of the loop. At n = 64, d_model 64 in floats the kernel went from 77 us to 66 in wasm
// (natively unchanged, 87).
// The weights are packed once and kept (they stay fixed while a learner types); K^T and V are
// packed on each run into panels the kernel's workspace keeps, so a run allocates nothing.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "attention/core/scalar.hpp"
#include "attention/kernel/simd.hpp"

namespace attention {

template <class T>
class Panels {
  using V = simd::Vector<T>;
  using Vec = typename V::type;
  static_assert(sizeof(Vec) == simd::kBytes, "a vector type, not a scalar");
  static constexpr long kLanes = V::kLanes, kWidth = 2 * kLanes;  // B's columns in one panel
  // A block of A's rows, copied interleaved into rows_, that stays in L2 while every panel runs
  // over it (64 rows of 512 doubles: 256 KB). The depth is not split: with a split at 256,
  // adding the partial sums back made the products in wasm 1.6 to 1.7 times slower (at n = 1024,
  // d_model 512), and natively no faster.
  static constexpr long kRows = 64;

 public:
  Panels() = default;
  template <class Derived>
  explicit Panels(const Eigen::MatrixBase<Derived>& B) { pack(B); }

  // Keeps B (k, m), in the storage it already has when that is large enough.
  template <class Derived>
  void pack(const Eigen::MatrixBase<Derived>& B) {
    if constexpr (!(Derived::Flags & Eigen::DirectAccessBit) || !std::is_same_v<typename Derived::Scalar, T>) {
      pack(MatrixT<T>(B.template cast<T>()));  // an expression with no storage of its own (a cast): evaluated first
    } else {
      k_ = B.rows(), m_ = B.cols();
      const long panels = (m_ + kWidth - 1) / kWidth;
      // The panels start on a cache line, so their rows (32 or 64 bytes) never straddle one: wasm's
      // allocator aligns to 8 bytes, and with the panels wherever it put them the same product
      // took up to twice as long in one run as in the next.
      constexpr std::size_t kLine = 64;
      data_.resize(static_cast<std::size_t>(panels * k_ * kWidth) + kLine / sizeof(T));
      offset_ = (kLine - reinterpret_cast<std::uintptr_t>(data_.data()) % kLine) % kLine / sizeof(T);
      // Read through a pointer and B's two strides, along whichever is contiguous: K^T (a
      // transposed block) by transposing its columns, V and the weights row by row. Read through
      // Eigen's expressions, one head's K^T and V at n = 64, d_model 64 took 17 us of the
      // kernel's 82 in wasm (5 natively); this way 0.8 (0.7), where V copied a number at a time
      // rather than a row at a time took 1.6.
      const T* b = B.derived().data();
      const long rs = B.rowStride(), cs = B.colStride();
      T* panel = data_.data() + offset_;
      for (long jb = 0; jb < panels; ++jb, panel += k_ * kWidth) {  // B[:, jb*kWidth : (jb+1)*kWidth], zero-padded
        const long c0 = jb * kWidth, cols = std::min(kWidth, m_ - c0);
        if (rs == 1) {
          transpose(b + c0 * cs, cs, cols, k_, panel, kWidth);
          for (long c = cols; c < kWidth; ++c) {
            for (long kk = 0; kk < k_; ++kk) panel[kk * kWidth + c] = T(0);
          }
        } else if (cs == 1 && cols == kWidth) {  // a panel's row is a piece of B's row: a copy of fixed size
          for (long kk = 0; kk < k_; ++kk) std::memcpy(panel + kk * kWidth, b + kk * rs + c0, sizeof(T) * kWidth);
        } else {
          for (long kk = 0; kk < k_; ++kk) {
            const T* row = b + kk * rs + c0 * cs;
            for (long c = 0; c < kWidth; ++c) panel[kk * kWidth + c] = c < cols ? row[c * cs] : T(0);
          }
        }
      }
    }
  }

  // out = X B; X (n, k), out (n, m)
  void multiply(const MatrixT<T>& X, MatrixT<T>& out) const {
    out.resize(X.rows(), m_);
    multiply(X.data(), X.cols(), X.rows(), out.data(), m_);
  }

  // out (n, m) = A (n, k) B, where A's rows are lda apart and out's ldo apart (blocks of wider
  // row-major matrices: one head's columns).
  void multiply(const T* a, long lda, long n, T* out, long ldo) const {
    const long panels = (m_ + kWidth - 1) / kWidth;
    rows_.resize(kRows * k_);
    for (long i0 = 0; i0 < n; i0 += kRows) {
      const long i1 = std::min(n, i0 + kRows);
      for (long i = i0; i < i1; i += 4) {  // rows i..i+R of A, R <= 4, as (k_, R)
        const long R = std::min(4L, i1 - i);
        transpose(a + i * lda, lda, R, k_, rows_.data() + (i - i0) * k_, R);
      }
      for (long jb = 0; jb < panels; ++jb) {
        const T* b = data_.data() + offset_ + jb * k_ * kWidth;
        const long cols = std::min(kWidth, m_ - jb * kWidth);
        T* oj = out + jb * kWidth;
        long i = i0;
        for (; i + 4 <= i1; i += 4) block<4>(rows_.data() + (i - i0) * k_, b, oj + i * ldo, ldo, cols);
        const T* rest = rows_.data() + (i - i0) * k_;  // the last 1 to 3 rows
        switch (i1 - i) {
          case 3: block<3>(rest, b, oj + i * ldo, ldo, cols); break;
          case 2: block<2>(rest, b, oj + i * ldo, ldo, cols); break;
          case 1: block<1>(rest, b, oj + i * ldo, ldo, cols); break;
          default: break;
        }
      }
    }
  }

 private:
  static Vec load(const T* p) {
    Vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

  // dst[kk * dst_stride + c] = src[c * stride + kk] for c < C, kk < K: C rows of K numbers
  // (stride apart) transposed. In whole blocks of kLanes x kLanes where the vectors allow,
  // shuffled in registers, rather than one number at a time: packing one head's K^T at n = 64,
  // d_model 64 took 5.9 us in wasm that way, 0.4 this way.
  static void transpose(const T* src, long stride, long C, long K, T* dst, long dst_stride) {
    long c = 0;
    if constexpr (kLanes == 2 || kLanes == 4) {
      for (; c + kLanes <= C; c += kLanes) {
        long kk = 0;
        for (; kk + kLanes <= K; kk += kLanes) transpose(src + c * stride + kk, stride, dst + kk * dst_stride + c, dst_stride);
        for (; kk < K; ++kk) {
          for (long l = c; l < c + kLanes; ++l) dst[kk * dst_stride + l] = src[l * stride + kk];
        }
      }
    }
    for (; c < C; ++c) {
      for (long kk = 0; kk < K; ++kk) dst[kk * dst_stride + c] = src[c * stride + kk];
    }
  }

  // The kLanes x kLanes block at src (rows stride apart), transposed, into dst (rows dst_stride apart).
  static void transpose(const T* src, long stride, T* dst, long dst_stride) {
    if constexpr (kLanes == 2) {
      const Vec v0 = load(src), v1 = load(src + stride);
      const Vec w0 = __builtin_shufflevector(v0, v1, 0, 2), w1 = __builtin_shufflevector(v0, v1, 1, 3);
      std::memcpy(dst, &w0, sizeof(Vec));
      std::memcpy(dst + dst_stride, &w1, sizeof(Vec));
    } else {
      const Vec v0 = load(src), v1 = load(src + stride), v2 = load(src + 2 * stride), v3 = load(src + 3 * stride);
      const Vec t0 = __builtin_shufflevector(v0, v1, 0, 4, 1, 5), t1 = __builtin_shufflevector(v2, v3, 0, 4, 1, 5);
      const Vec t2 = __builtin_shufflevector(v0, v1, 2, 6, 3, 7), t3 = __builtin_shufflevector(v2, v3, 2, 6, 3, 7);
      const Vec w[4] = {__builtin_shufflevector(t0, t1, 0, 1, 4, 5), __builtin_shufflevector(t0, t1, 2, 3, 6, 7),
                        __builtin_shufflevector(t2, t3, 0, 1, 4, 5), __builtin_shufflevector(t2, t3, 2, 3, 6, 7)};
      for (int j = 0; j < 4; ++j) std::memcpy(dst + j * dst_stride, &w[j], sizeof(Vec));
    }
  }

  // R rows of out (cols of them, at most one panel wide) = R rows of A times one panel.
  template <int R>
  void block(const T* a, const T* b, T* out, long ldo, long cols) const {
    Vec sum[R][2] = {};
    for (long kk = 0; kk < k_; ++kk, b += kWidth, a += R) {
      const Vec b0 = load(b), b1 = load(b + kLanes);
      for (int r = 0; r < R; ++r) {
        const Vec x = V::splat(a[r]);
        sum[r][0] += x * b0;
        sum[r][1] += x * b1;
      }
    }
    if (cols == kWidth) {  // a whole panel: two stores of a fixed size, not a call to memcpy
      for (int r = 0; r < R; ++r) {
        std::memcpy(out + r * ldo, &sum[r][0], sizeof(Vec));
        std::memcpy(out + r * ldo + kLanes, &sum[r][1], sizeof(Vec));
      }
      return;
    }
    T row[kWidth];
    for (int r = 0; r < R; ++r) {
      std::memcpy(row, &sum[r][0], sizeof(Vec));
      std::memcpy(row + kLanes, &sum[r][1], sizeof(Vec));
      std::memcpy(out + r * ldo, row, sizeof(T) * cols);
    }
  }

  long k_ = 0, m_ = 0;
  std::vector<T> data_;     // panel by panel, each k_ rows of kWidth, from offset_ on
  std::size_t offset_ = 0;  // a copy keeps it, with the contents: both are the original's
  // (kRows * k_) scratch of multiply(): a block of A's rows, interleaved. So one Panels is not
  // multiplied from two threads at once (the kernel runs on one).
  mutable std::vector<T> rows_;
};

}  // namespace attention
