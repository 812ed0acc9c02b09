#pragma once
// Every numeric tolerance of the Catch2 tests, each named once with the reason for its size
// (as ggml's test-backend-ops keeps one error measure and one bound per op). A test compares
// with one of these names, never with a literal, so a bound that moves moves for every test
// that shares its reason. The JavaScript tests keep theirs in tests/tolerance.mjs.
//
// Unless a test says otherwise the error is relative to max(1, |expected|) (support.hpp's
// CHECK_CLOSE_JSON, the products' `relative`), or is Catch's Approx epsilon. Double's unit
// roundoff is 1.1e-16 (an ulp of 1 is 2.2e-16); float's is 6e-8 (an ulp of 1 is 1.2e-7).
namespace tol {

// Bit for bit: the same random draws in the same order (NumPy's Mersenne Twister).
inline constexpr double exact = 0.0;

// --- Double against another double program of the same formulas ---------------------------

// NumPy's reference fixtures (tests/fixtures, float64): NumPy sums pairwise and through BLAS,
// in another order than Eigen, and its exp and tanh may differ in the last bit. Sums of a few
// hundred terms of size ~10 stay under 300 * 10 * 2.2e-16 = 7e-13.
inline constexpr double against_numpy = 1e-12;

// PyTorch's forward in float64 (multi_head_attention_forward, complex-number RoPE, the tiny
// model's loss and logits): the same bound and the same reason as NumPy.
inline constexpr double against_torch = 1e-12;

// PyTorch autograd's gradients, and three torch.optim steps taken with them: the backward
// pass chains a dozen products and sums of the forward's already rounded numbers, and each
// optimizer step adds them in again; 100 times the forward's bound.
inline constexpr double against_torch_gradients = 1e-10;

// --- Double against itself along another path -----------------------------------------------

// The core's double result against the same quantity reached another way in double: a KV
// cache, online blocks, a permutation, the benchmark kernel, a constant shift, a row sum, the
// test's own loop over the trace's Q and K. Only the order of sums and which exp is called
// differ; the same budget as against_numpy, since the sums are as long.
inline constexpr double reordered = 1e-12;

// A small product (depth at most 16) against Eigen's: at most 16 roundings per entry, each
// below 2.2e-16 of a sum of terms of order 1, stays under 16 * 16 * 2.2e-16 = 6e-14.
inline constexpr double short_product = 1e-13;

// A handful of roundings (~45 ulps): a norm of a dozen numbers, one rotation, a bias added,
// an exp of a difference, a softcap's tanh, Adam's first step against its closed form.
inline constexpr double few_roundings = 1e-14;

// One or two roundings (~4 ulps): exp against std::exp, a sum of two numbers, 1/(1 + e^-1).
// Also three optimizer steps against torch.optim's on weights of order 1: the same operations
// in the same order, and a step of ~lr rounds far below an ulp of the weight it moves.
inline constexpr double last_bits = 1e-15;

// --- Float against double ---------------------------------------------------------------------

// The kernel's vector exp in float against std::exp in double: 2.5 ulps of float.
inline constexpr double float_last_bits = 3e-7;

// A few float roundings (~8 ulps): a softmax row of 6 in float against double; a sum of
// positive numerators, where each partial sum rounds once and the errors mostly cancel.
inline constexpr double float_few_roundings = 1e-6;

// A whole forward pass in float against double, with sums over at most ~16 terms (the
// projections of a d_model of 8 or 16, a handful of keys): ~80 ulps of float.
inline constexpr double float_vs_double = 1e-5;

// Float with sums over hundreds of terms (a depth of 700, 300 keys): rounding grows with the
// length of the sums, ~800 ulps of float.
inline constexpr double float_long_sums = 1e-4;

// --- Finite differences -----------------------------------------------------------------------

// Analytic gradients against central differences with a step of 1e-5 (relative, over a whole
// tensor): truncation (h^2 f''' / 6 ~ 1e-11) and rounding (eps |loss| / h ~ 2e-11) are far
// below it; a wrong gradient is off by order 1. Loose on purpose: it tests the formulas, the
// PyTorch fixtures test the digits.
inline constexpr double finite_difference = 1e-6;

}  // namespace tol
