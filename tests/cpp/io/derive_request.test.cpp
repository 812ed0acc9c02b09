// A derivation asked for in JSON: a request the page could send is answered, or refused in one
// line, never by an exception.
#include "attention/io/derive_request.hpp"

#include "support.hpp"

using nlohmann::json;

TEST_CASE("a request that is not an object is refused, saying what a request is", "[derivation][errors]") {
  CHECK(attention::derive_text("nope")["error"]["message"] == "derive: expected {spec, matrix, head, row, col}: it does not begin with '{'");
  CHECK(attention::derive_text("[1]")["error"]["message"] == "derive: expected {spec, matrix, head, row, col}");
}

TEST_CASE("derivation requests of the wrong types are errors, never exceptions", "[derivation][errors]") {
  // In wasm an exception aborts the module (and leaked until every later call failed).
  CHECK(attention::derive_text(R"({"spec": {}, "matrix": 1})")["error"]["message"] == "matrix: must be scores, weights or output");
  for (const char* request : {R"({"spec": {}, "matrix": null})", R"({"spec": 1, "matrix": "weights"})", R"({"matrix": "weights"})",
                              R"({"spec": {}, "matrix": "weights", "head": 1e300, "row": 0, "col": 0})",
                              R"({"spec": {}, "matrix": "weights", "head": 18446744073709551615, "row": "0", "col": [0]})"}) {
    INFO(request);
    json d;
    REQUIRE_NOTHROW(d = attention::derive_text(request));
    CHECK(d.contains("error"));
  }
}
