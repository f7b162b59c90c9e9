#pragma once
// Byte-by-byte RsLi fixture builder for tests (independent of the library's editor):
// 32-byte header "NL 00 01", count at 4, BA AB at 14 when presorted, seed at 20; rows with
// the given cells, encrypted as one XOR stream; payloads in row order; optional AO trailer.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d::test {

struct FixtureRow {
  std::string name{};
  std::uint16_t flags = 0;
  std::int16_t cell = 0;
  std::uint32_t unpacked = 0;
  core::Bytes payload{};                      // written as-is
  std::optional<std::uint32_t> packed{};      // declared packed size (default payload size)
  std::optional<std::uint32_t> raw_offset{};  // default: position - overlay
  std::array<std::uint8_t, 4> service{};
};

inline core::Bytes synthetic_rsli(const std::vector<FixtureRow>& rows, bool presorted, std::uint16_t seed,
                                  std::optional<std::uint32_t> overlay = std::nullopt) {
  core::ByteWriter header;
  header.bytes(std::string_view("NL\0\1", 4));
  header.i16(static_cast<std::int16_t>(rows.size()));
  header.zeros(8);
  header.u16(presorted ? 0xABBA : 0);
  header.zeros(4);
  header.u32(seed);
  header.zeros(8);
  core::ByteWriter table;
  core::ByteWriter payloads;
  std::uint32_t pos = static_cast<std::uint32_t>(32 + 32 * rows.size());
  for (const auto& r : rows) {
    std::string name = r.name;
    name.resize(12, '\0');
    table.bytes(name);
    table.bytes(core::ByteView(r.service));
    table.u16(r.flags);
    table.i16(r.cell);
    table.u32(r.unpacked);
    table.u32(r.raw_offset ? *r.raw_offset : pos - overlay.value_or(0));
    table.u32(r.packed ? *r.packed : static_cast<std::uint32_t>(r.payload.size()));
    payloads.bytes(r.payload);
    pos += static_cast<std::uint32_t>(r.payload.size());
  }
  core::Bytes t = table.take();
  xor_stream(seed, t);
  core::ByteWriter out;
  out.bytes(header.buffer());
  out.bytes(t);
  out.bytes(payloads.buffer());
  if (overlay) {
    out.bytes(std::string_view("AO"));
    out.u32(*overlay);
  }
  return out.take();
}

inline core::Bytes bytes_of(std::string_view s) {
  return core::Bytes(s.begin(), s.end());
}

}  // namespace sortie::iron3d::test
