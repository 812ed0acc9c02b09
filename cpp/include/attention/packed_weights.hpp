#pragma once
// A weight matrix kept in the layout of Eigen's product kernel, for products X * W where W
// stays the same from run to run and X changes (a learner's sentence under fixed weights).
// Eigen's own product packs both sides into cache-sized panels on every call; with a few
// tokens and d_model 512 that packing of W costs as much as the multiplication. Here W is
// packed once, and each product packs only X, then runs Eigen's panel kernel (gebp) over
// the kept panels. Eigen's internal packing and kernel are used as its own product uses them
// (Eigen 3.4, GeneralMatrixMatrix.h, sequential path), with the same blocking heuristic.
#include <algorithm>
#include <vector>

#include <Eigen/Core>

#include "attention/scalar.hpp"

namespace attention {

template <class T>
class PackedWeights {
  // Row-major X (n, d_in) * W (d_in, d_out) is, in column-major terms, W^T (d_out, d_in) *
  // X^T (d_in, n): W is the left side of Eigen's kernel and X the right side.
  using Index = Eigen::Index;
  using Traits = Eigen::internal::gebp_traits<T, T>;
  using ColMap = Eigen::internal::const_blas_data_mapper<T, Index, Eigen::ColMajor>;
  using ResMap = Eigen::internal::blas_data_mapper<T, Index, Eigen::ColMajor, Eigen::Unaligned, 1>;

 public:
  using Buffer = std::vector<T, Eigen::aligned_allocator<T>>;

  PackedWeights() = default;
  explicit PackedWeights(const MatrixT<T>& W) : d_in_(W.rows()), d_out_(W.cols()) {
    kc_ = d_in_, mc_ = d_out_;
    // W is packed before any X is seen: the blocking is sized for X^T up to 4096 wide, and a
    // wider X is split into such blocks.
    Index nc = 4096;
    Eigen::internal::computeProductBlockingSizes<T, T>(kc_, mc_, nc);
    nc_ = nc;
    Eigen::internal::gemm_pack_lhs<T, Index, ColMap, Traits::mr, Traits::LhsProgress, typename Traits::LhsPacket4Packing,
                                   Eigen::ColMajor>
        pack;
    const ColMap wt(W.data(), d_out_);
    // Each panel starts on a 64-byte boundary, as the kernel's aligned loads expect.
    constexpr Index kAlign = 64 / sizeof(T);
    Index size = 0;
    for (Index i = 0; i < d_out_; i += mc_) {
      for (Index k = 0; k < d_in_; k += kc_) {
        starts_.push_back(size);
        size += (std::min(mc_, d_out_ - i) * std::min(kc_, d_in_ - k) + kAlign - 1) / kAlign * kAlign;
      }
    }
    panels_.resize(static_cast<std::size_t>(size));
    for (Index i = 0; i < d_out_; i += mc_) {  // panel (i, k) holds W^T[i:i+mc, k:k+kc]
      for (Index k = 0; k < d_in_; k += kc_) {
        pack(panels_.data() + starts_[panel(i, k)], wt.getSubMapper(i, k), std::min(kc_, d_in_ - k), std::min(mc_, d_out_ - i));
      }
    }
  }

  // out = X W; X (n, d_in), out (n, d_out)
  void multiply(const MatrixT<T>& X, MatrixT<T>& out, Buffer& x_panel) const {
    const Index n = X.rows();
    out.setZero(n, d_out_);  // the kernel adds into its result
    Eigen::internal::gemm_pack_rhs<T, Index, ColMap, Traits::nr, Eigen::ColMajor> pack_x;
    Eigen::internal::gebp_kernel<T, T, Index, ResMap, Traits::mr, Traits::nr, false, false> gebp;
    const ColMap xt(X.data(), d_in_);
    const ResMap res(out.data(), d_out_);
    x_panel.resize(static_cast<std::size_t>(kc_ * std::min<Index>(nc_, n)));
    for (Index j = 0; j < n; j += nc_) {
      const Index nn = std::min(nc_, n - j);
      for (Index k = 0; k < d_in_; k += kc_) {
        const Index kk = std::min(kc_, d_in_ - k);
        pack_x(x_panel.data(), xt.getSubMapper(k, j), kk, nn);
        for (Index i = 0; i < d_out_; i += mc_) {
          const Index m = std::min(mc_, d_out_ - i);
          gebp(res.getSubMapper(i, j), panels_.data() + starts_[panel(i, k)], x_panel.data(), m, kk, nn, T(1));
        }
      }
    }
  }

 private:
  // Panels are stored row block by row block, depth blocks inside.
  std::size_t panel(Index i, Index k) const {
    return static_cast<std::size_t>(i / mc_ * ((d_in_ + kc_ - 1) / kc_) + k / kc_);
  }

  Index d_in_ = 0, d_out_ = 0, kc_ = 0, mc_ = 0, nc_ = 0;
  Buffer panels_;               // W^T packed panel by panel, each padded to 64 bytes
  std::vector<Index> starts_;   // where each panel starts in panels_
};

}  // namespace attention
