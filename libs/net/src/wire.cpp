#include "sortie/net/wire.hpp"

#include <fmt/format.h>

namespace sortie::net::wire {

using core::fail;

void put_varint(core::ByteWriter& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.u8(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.u8(static_cast<std::uint8_t>(v));
}

std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

core::Result<std::uint64_t> get_varint(core::ByteReader& in) {
  const std::size_t start = in.offset();
  std::uint64_t v = 0;
  for (unsigned i = 0; i < 10; ++i) {
    SORTIE_TRY(const std::uint8_t b, in.u8());
    if (i == 9 && b > 1) {
      return fail(in.error_at(start, "net.message.varint", "varint exceeds 64 bits").expect("<= 2^64-1", "more"));
    }
    v |= static_cast<std::uint64_t>(b & 0x7f) << (7 * i);
    if ((b & 0x80) == 0) {
      if (b == 0 && i > 0) {
        return fail(in.error_at(start, "net.message.varint", "varint is not in its shortest form")
                        .expect("no trailing zero group", fmt::format("{} bytes", i + 1)));
      }
      return v;
    }
  }
  return fail(in.error_at(start, "net.message.varint", "varint longer than 10 bytes").expect("<= 10 bytes", "more"));
}

void put_str8(core::ByteWriter& out, std::string_view s) {
  out.u8(static_cast<std::uint8_t>(s.size()));
  out.bytes(s);
}

namespace {

core::Result<std::size_t> check_length(core::ByteReader& in, std::size_t at, std::size_t len, std::size_t max,
                                       std::string_view what, bool min_one) {
  if (len > max) {
    return fail(in.error_at(at, "net.message.too_long", fmt::format("{} is longer than allowed", what))
                    .expect(fmt::format("<= {} bytes", max), fmt::format("{} bytes", len)));
  }
  if (min_one && len == 0) {
    return fail(in.error_at(at, "net.message.empty", fmt::format("{} is empty", what)).expect(">= 1 byte", "0"));
  }
  if (len > in.remaining()) {
    return fail(in.error_at(at, "net.message.eof", fmt::format("{} runs past the end of the payload", what))
                    .expect(fmt::format("{} bytes", len), fmt::format("{} bytes left", in.remaining())));
  }
  return len;
}

}  // namespace

core::Result<std::string> get_str8(core::ByteReader& in, std::size_t max, std::string_view what, bool min_one) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t len8, in.u8());
  SORTIE_TRY(const std::size_t len, check_length(in, at, len8, max, what, min_one));
  SORTIE_TRY(const core::ByteView b, in.bytes(len));
  return std::string(core::as_chars(b));
}

void put_str16(core::ByteWriter& out, std::string_view s) {
  out.u16(static_cast<std::uint16_t>(s.size()));
  out.bytes(s);
}

core::Result<std::string> get_str16(core::ByteReader& in, std::size_t max, std::string_view what) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint16_t len16, in.u16());
  SORTIE_TRY(const std::size_t len, check_length(in, at, len16, max, what, false));
  SORTIE_TRY(const core::ByteView b, in.bytes(len));
  return std::string(core::as_chars(b));
}

void put_blob16(core::ByteWriter& out, core::ByteView b) {
  out.u16(static_cast<std::uint16_t>(b.size()));
  out.bytes(b);
}

core::Result<core::Bytes> get_blob16(core::ByteReader& in, std::size_t max, std::string_view what) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint16_t len16, in.u16());
  SORTIE_TRY(const std::size_t len, check_length(in, at, len16, max, what, false));
  SORTIE_TRY(const core::ByteView b, in.bytes(len));
  return core::Bytes(b.begin(), b.end());
}

core::Result<bool> get_bool(core::ByteReader& in, std::string_view what) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t v, in.u8());
  if (v > 1) {
    return fail(
        in.error_at(at, "net.message.bool", fmt::format("{} must be 0 or 1", what)).expect("0|1", std::to_string(v)));
  }
  return v == 1;
}

core::Result<world::ObjectId> get_object_id(core::ByteReader& in, bool nonzero) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint64_t raw, in.u64());
  if (nonzero && raw == 0) {
    return fail(in.error_at(at, "net.message.object_id", "object id must not be 0").expect("a nonzero id", "0"));
  }
  return world::ObjectId::from_raw(raw);
}

core::Result<std::uint16_t> get_player(core::ByteReader& in, bool nonzero) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint16_t p, in.u16());
  if (nonzero && p == 0) {
    return fail(in.error_at(at, "net.message.player", "player number must not be 0").expect("1..65535", "0"));
  }
  return p;
}

void put_transform(core::ByteWriter& out, const core::Transform& t) {
  for (const core::Vec3* v : {&t.position, &t.orientation, &t.scale}) {
    out.f32(v->x);
    out.f32(v->y);
    out.f32(v->z);
  }
}

core::Result<core::Transform> get_transform(core::ByteReader& in) {
  core::Transform t;
  for (core::Vec3* v : {&t.position, &t.orientation, &t.scale}) {
    SORTIE_TRY(v->x, in.f32());
    SORTIE_TRY(v->y, in.f32());
    SORTIE_TRY(v->z, in.f32());
  }
  return t;
}

}  // namespace sortie::net::wire
