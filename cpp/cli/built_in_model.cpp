#include "built_in_model.hpp"

#include <cstddef>
#include <string>

#include "attention/io/model_file.hpp"

extern const unsigned char tiny_lm_weights[];
extern const std::size_t tiny_lm_weights_size;

namespace attention {

LanguageModel built_in_model() {
  return read_model(std::string(reinterpret_cast<const char*>(tiny_lm_weights), tiny_lm_weights_size)).value();
}

}  // namespace attention
