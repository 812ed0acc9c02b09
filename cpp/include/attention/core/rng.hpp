#pragma once
// NumPy's legacy random stream (np.random.seed / RandomState), bit for bit, so that a teacher's
// notebook and the playground print the same numbers for the same seed.
#include <array>
#include <cstdint>

#include "attention/core/scalar.hpp"

namespace attention {

class NumpyRandom {
 public:
  explicit NumpyRandom(std::uint32_t seed);  // np.random.seed(seed): MT19937 init_genrand

  std::uint32_t next_uint32();
  double uniform();                 // np.random.rand(): 53-bit double in [0, 1)
  double normal();                  // np.random.randn(): legacy polar method, caches one value
  std::uint64_t randint(std::uint64_t high);  // np.random.randint(high): masked rejection

  Matrix rand(long rows, long cols);
  Matrix randn(long rows, long cols);
  Matrix randint(std::uint64_t high, long rows, long cols);

 private:
  void twist();

  std::array<std::uint32_t, 624> key_{};
  int pos_ = 624;
  bool has_gauss_ = false;
  double gauss_ = 0.0;
};

}  // namespace attention
