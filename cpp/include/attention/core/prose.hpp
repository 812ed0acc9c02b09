#pragma once
// What only a person reads, never the arithmetic: a setting's help and a trace entry's label.
// The first heatmap's module (built with ATTENTION_FIRST_HEATMAP: see CMakeLists.txt) is never
// asked for them (the page has them from the whole core's tables, written at build time), so it
// keeps none of them: their text would be bytes a shared link or a post downloads before its
// first heatmap.
namespace attention {

constexpr const char* prose([[maybe_unused]] const char* text) {
#ifdef ATTENTION_FIRST_HEATMAP
  return "";
#else
  return text;
#endif
}

}  // namespace attention
