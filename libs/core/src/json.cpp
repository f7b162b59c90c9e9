#include "sortie/core/json.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdlib>

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

Json f32_json(float v) {
  if (std::isfinite(v)) {
    // The double nearest to the float's shortest text ("0.1", not 0.10000000149011612), unless
    // that double does not convert back to the same float; then the float's exact value.
    char buf[32];
    const auto end = fmt::format_to_n(buf, sizeof(buf) - 1, "{}", v).out;
    *end = '\0';
    const double d = std::strtod(buf, nullptr);
    return static_cast<float>(d) == v && std::signbit(d) == std::signbit(v) ? d : static_cast<double>(v);
  }
  return fmt::format("f32:{:08x}", std::bit_cast<std::uint32_t>(v));
}

Json f64_json(double v) {
  if (std::isfinite(v)) return v;
  return fmt::format("f64:{:016x}", std::bit_cast<std::uint64_t>(v));
}

bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07u;
    } else {
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3Fu);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

Json bytes_text_json(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  return Json{{"hex", to_hex(as_bytes(bytes))}};
}

Json vec2_json(const Vec2& v) {
  return Json::array({f32_json(v.x), f32_json(v.y)});
}

Json vec3_json(const Vec3& v) {
  return Json::array({f32_json(v.x), f32_json(v.y), f32_json(v.z)});
}

std::string dump_json(const Json& j, bool pretty) {
  return j.dump(pretty ? 2 : -1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace sortie::core
