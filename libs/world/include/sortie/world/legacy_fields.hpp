#pragma once
// Private helpers of the v1 (legacy) record conversion shared by the built-in and movement kinds.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>

#include "sortie/world/command_registry.hpp"

namespace sortie::world::legacy {

enum Field : unsigned {
  kTarget = 1u << 0,
  kX = 1u << 1,
  kY = 1u << 2,
  kZ = 1u << 3,
  kSpeed = 1u << 4,
  kValue = 1u << 5,
  kText = 1u << 6,
};

inline core::Diagnostic field_error(std::string_view kind, std::string_view field, std::string message,
                                    std::string expected, std::string found) {
  return core::Diagnostic::error("command_log.legacy_field", fmt::format("{}: {}", kind, message))
      .in(std::string(field))
      .expect(std::move(expected), std::move(found));
}

// A v1 record kept every field for every kind; the fields a kind does not use must be zero
// (our writers always wrote zeros), so that converting to the kind's payload loses nothing.
inline core::Status require_unused(const LegacyCommandFields& f, unsigned used, std::string_view kind) {
  auto zero_f32 = [&](float v, Field bit, std::string_view name) -> core::Status {
    if ((used & bit) != 0 || std::bit_cast<std::uint32_t>(v) == 0) return {};
    return core::fail(field_error(kind, name, "field is not used by this kind and must be 0", "0 (bits 00000000)",
                                  fmt::format("{} (bits {:08x})", v, std::bit_cast<std::uint32_t>(v))));
  };
  if ((used & kTarget) == 0 && f.target.raw() != 0) {
    return core::fail(
        field_error(kind, "target", "field is not used by this kind and must be 0", "p0:c0:#0", f.target.to_string()));
  }
  SORTIE_CHECK(zero_f32(f.x, kX, "x"));
  SORTIE_CHECK(zero_f32(f.y, kY, "y"));
  SORTIE_CHECK(zero_f32(f.z, kZ, "z"));
  SORTIE_CHECK(zero_f32(f.speed, kSpeed, "speed"));
  if ((used & kValue) == 0 && f.value != 0) {
    return core::fail(
        field_error(kind, "value", "field is not used by this kind and must be 0", "0", std::to_string(f.value)));
  }
  if ((used & kText) == 0 && !f.text.empty()) {
    return core::fail(field_error(kind, "text", "field is not used by this kind and must be empty", "\"\"", f.text));
  }
  return {};
}

}  // namespace sortie::world::legacy
