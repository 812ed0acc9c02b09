#pragma once
// Two JSON values the same to the bit: the same kind of value and of number (nlohmann's == holds
// 1 and 1.0 equal, and -0.0 and 0.0), the same bits of every double, the same keys and items.
// Shared by the Catch2 tests and the fuzz target.
#include <cstring>

#include <nlohmann/json.hpp>

namespace support {

inline bool identical(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type()) return false;
  if (a.is_number_float()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  if (a.is_array() || a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
      if ((a.is_object() && i.key() != j.key()) || !identical(*i, *j)) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace support
