#include "sortie/core/json.hpp"

#include "sortie/core/text.hpp"

namespace sortie::core {

Json legacy_text_json(std::string_view cp1251_bytes) {
  const DecodedText d = cp1251_to_utf8(cp1251_bytes);
  Json j;
  j["text"] = d.utf8;
  if (!d.lossless) j["raw_hex"] = to_hex(as_bytes(cp1251_bytes));
  return j;
}

Json fixed_string_json(const FixedString& s) {
  Json j = legacy_text_json(s.text());
  if (s.has_tail() || !s.has_nul()) j["raw_hex"] = to_hex(as_bytes(s.raw));
  return j;
}

Json diagnostics_json(const Diagnostics& diagnostics) {
  Json arr = Json::array();
  for (const auto& d : diagnostics) arr.push_back(d.to_json());
  return arr;
}

std::string dump_json(const Json& j, bool pretty) {
  return j.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace sortie::core
