#pragma once
// Wire primitives of the net codec, on top of core::ByteReader / ByteWriter: LEB128 varints
// (canonical: the shortest form only), zigzag, short length-prefixed strings and blobs, object
// ids and transforms as exact IEEE-754 bits. Every reader checks a length before the bytes it
// covers and reports `net.message.*` codes (the reader's code prefix).
#include <cstdint>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::net::wire {

void put_varint(core::ByteWriter& out, std::uint64_t v);
// Errors: net.message.eof, net.message.varint (longer than 10 bytes, not the shortest form, or
// beyond 64 bits).
core::Result<std::uint64_t> get_varint(core::ByteReader& in);
[[nodiscard]] std::size_t varint_size(std::uint64_t v);

[[nodiscard]] constexpr std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
[[nodiscard]] constexpr std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

// u8 length + bytes. The writer truncates nothing: callers check limits first (encode errors).
void put_str8(core::ByteWriter& out, std::string_view s);
// Errors: net.message.too_long (length > max), net.message.empty (min_one and length 0),
// net.message.eof.
core::Result<std::string> get_str8(core::ByteReader& in, std::size_t max, std::string_view what, bool min_one);
// u16 length + bytes.
void put_str16(core::ByteWriter& out, std::string_view s);
core::Result<std::string> get_str16(core::ByteReader& in, std::size_t max, std::string_view what);
void put_blob16(core::ByteWriter& out, core::ByteView b);
core::Result<core::Bytes> get_blob16(core::ByteReader& in, std::size_t max, std::string_view what);

// u8 0 or 1. Errors: net.message.bool.
core::Result<bool> get_bool(core::ByteReader& in, std::string_view what);
// u64 raw id; `nonzero` rejects the null id (net.message.object_id).
core::Result<world::ObjectId> get_object_id(core::ByteReader& in, bool nonzero);
// u16 player number; `nonzero` rejects player 0 (net.message.player).
core::Result<std::uint16_t> get_player(core::ByteReader& in, bool nonzero);

// 9 x f32: position, orientation, scale, bit for bit.
void put_transform(core::ByteWriter& out, const core::Transform& t);
core::Result<core::Transform> get_transform(core::ByteReader& in);

}  // namespace sortie::net::wire
