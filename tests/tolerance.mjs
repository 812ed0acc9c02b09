// Every numeric tolerance of the Node and Playwright tests, each named once with the reason
// for its size (as ggml's test-backend-ops keeps one error measure and one bound per op). A
// test compares with one of these names, never with a literal; the Catch2 tests keep theirs in
// tests/cpp/tolerance.hpp.
//
// Unless a test says otherwise the error is relative to max(1, |expected|) (tests/wasm/
// compare.mjs's maxError). Double's unit roundoff is 1.1e-16 (an ulp of 1 is 2.2e-16); float's
// is 6e-8 (an ulp of 1 is 1.2e-7).

// The wasm build against the native one: the same C++ compiled twice. Eigen's vector width
// (128-bit wasm SIMD against SSE/AVX) changes the order of sums, and Emscripten's libm may round
// exp and tanh differently in the last bit; sums of a few hundred terms of size ~10 stay under
// 300 * 10 * 2.2e-16 = 7e-13.
export const wasmVsNative = 1e-12;

// NumPy's reference fixtures (tests/fixtures, float64): NumPy sums pairwise and through BLAS,
// in another order; the same budget as wasmVsNative for the same reason.
export const againstNumpy = 1e-12;

// What the page shows against the core's trace, reached another way in double: o / l of the
// last online block against the head's output, a row of weights summed, q·k from the
// derivation. Only the order of sums differs; the same budget as againstNumpy.
export const reordered = 1e-12;

// One or two roundings (~4 ulps of 1): a difference the page subtracts against the same
// difference taken here.
export const lastBits = 1e-15;

// A number the page shows in full (a hovered cell's title, a derivation's result): 8
// significant digits, so it is off by up to half a unit in the 8th, 5e-8 of its size.
export const shownDigits = 5e-8;

// QK-norm's rows against a root mean square of 1: the 1e-6 added to each block's mean square
// (as torch's rms_norm) leaves its RMS below 1 by about 5e-7 / mean square, under 1e-5 for
// blocks whose mean square is above 0.05, as the tests' are.
export const rmsNormEps = 1e-5;

// The article's printed numbers: it printed its embeddings and its output to 8 decimals, so
// each printed output is off by up to 5e-9 and the embeddings' rounding carries through the
// products.
export const printedDigits = 2e-8;

// The benchmark kernel's float path against its double path, with sums over up to 256 keys
// and 64 columns: rounding grows with the length of the sums, ~800 ulps of float.
export const floatLongSums = 1e-4;

// A row of the trainer's attention adds up to 1: the test asks that the page shows a
// distribution, not for its last digits (tests/cpp holds the core's rows to 1e-12 of 1).
export const distribution = 1e-9;

// Two colours "equally light": 0.02 of OKLab lightness (0 black, 1 white) is about the
// smallest difference a reader notices, and 8-bit sRGB channels alone move it by ~0.004.
export const oklabLightness = 0.02;

// Bytes of the wasm heap in use, the same state kept, read after different histories: emmalloc
// counts the whole block an allocation lands in, and where it lands depends on what was freed
// before (over 10,000 mixed runs the same kept state read 9852 to 9876 bytes). A leak of one
// allocation per run would be 80 KB past it.
export const heapPlacement = 64;
