// The first heatmap's module's JS face (appended to Emscripten's glue with --post-js): the calls
// the whole core gives through embind, with the same names and types, over first_wasm.cpp's C
// calls. A spec crosses as UTF-8 in memory the module allocates (it may be far larger than the
// stack); an answer is the module's own string, read before the next call.
function firstCall(f, spec) {
  var length = lengthBytesUTF8(spec), at = _malloc(length + 1);
  stringToUTF8(spec, at, length + 1);
  var answer = UTF8ToString(f(at, length));
  _free(at);
  return answer;
}
Module['run_packed'] = function (spec) { return firstCall(_first_run_packed, spec); };
Module['work'] = function (spec) { return firstCall(_first_work, spec); };
Module['packed_numbers'] = function () {
  var at = _first_packed_data() >> 3;
  return HEAPF64.subarray(at, at + _first_packed_size());
};
Module['drop_packed'] = function () { _first_drop_packed(); };
