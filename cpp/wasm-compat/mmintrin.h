/* Eigen's SSE path includes <mmintrin.h> (MMX), which Emscripten 3.1.6 does not emulate; Eigen
 * uses no MMX intrinsic, so this stands in for it and the SSE2 headers, which Emscripten
 * translates to wasm SIMD, do the work. Only on the include path of the wasm build. */
#pragma once
#include <xmmintrin.h>
