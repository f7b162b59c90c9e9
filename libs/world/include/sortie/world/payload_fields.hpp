#pragma once
// One field list per command payload drives its bytes, its JSON and (for state that mirrors a
// payload, e.g. move's Body) its state encoding. Include this header only in the .cpp that
// defines payloads' field lists; every other translation unit links to the codecs instantiated
// there (command.hpp: PayloadCodec).
//
//   // header
//   struct GotoCommand {
//     static constexpr std::string_view kName = "move.goto";
//     static constexpr world::CommandKindId kWireId = 17;
//     world::ObjectId target{};
//     core::Vec2 goal{};
//     float speed = 0.0f;
//     template <class Self, class Visitor>
//     static void fields(Self& self, Visitor& v);
//   };
//   // .cpp
//   template <class Self, class Visitor>
//   void GotoCommand::fields(Self& c, Visitor& v) {
//     v(c.target, "target");  // u64 raw id          | "target": {"owner","class","index"}
//     v(c.goal.x, "x");       // f32                 | "x": value, "x_bits": u32 (read)
//     v(c.goal.y, "y");
//     v(c.speed, "speed");
//   }
//   ...
//   template struct sortie::world::PayloadCodec<sortie::move::GotoCommand>;  // at global scope
//
// A field is (value, JSON key[, spec]). Without a spec the value's type decides: ObjectId,
// float, std::string (u32 length + bytes, at most kMaxPayloadStringBytes, 64 KiB) and integers (little-endian of their
// width; JSON integers range-checked). Specs add checks and other encodings: Flag (bool as
// u8 0|1), Text (a bounded string), Range (an integer in lo..hi), Names (an enum as u8 and its
// name). v.bits(spec, flags...) packs bools into one byte.
//
// Bytes are read bounded (core::ByteReader); the first bad field stops the read and its JSON key
// is appended to the diagnostic's field path ("commands[3].payload.paused"). JSON errors name
// path.key as command_json.hpp's helpers do (command_log.field_missing, command_log.field_type).
#include <fmt/format.h>

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/limits.hpp"

namespace sortie::world::field {

inline std::string key_path(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

// A value outside what the field allows, in JSON.
inline core::Diagnostic json_range(const std::string& path, std::string_view key, std::string_view message,
                                   std::string expected, std::string found) {
  return core::Diagnostic::error("command_log.field_type", std::string(message))
      .in(key_path(path, key))
      .expect(std::move(expected), std::move(found));
}

// ---------------------------------------------------------------- specs

// An integer of its own width, little-endian (int8 as one byte).
struct Int {
  template <class W, class T>
  void write(W& out, T v) const {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "a bool field needs a Flag spec");
    if constexpr (sizeof(T) == 1) {
      out.u8(static_cast<std::uint8_t>(v));
    } else if constexpr (sizeof(T) == 2) {
      out.u16(static_cast<std::uint16_t>(v));
    } else if constexpr (sizeof(T) == 4) {
      out.u32(static_cast<std::uint32_t>(v));
    } else {
      out.u64(static_cast<std::uint64_t>(v));
    }
  }
  template <class T>
  core::Status read(core::ByteReader& in, std::string_view, T& v) const {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>, "a bool field needs a Flag spec");
    if constexpr (sizeof(T) == 1) {
      SORTIE_TRY(const std::uint8_t raw, in.u8());
      v = static_cast<T>(raw);
    } else if constexpr (sizeof(T) == 2) {
      SORTIE_TRY(const std::uint16_t raw, in.u16());
      v = static_cast<T>(raw);
    } else if constexpr (sizeof(T) == 4) {
      SORTIE_TRY(const std::uint32_t raw, in.u32());
      v = static_cast<T>(raw);
    } else {
      SORTIE_TRY(const std::uint64_t raw, in.u64());
      v = static_cast<T>(raw);
    }
    return {};
  }
  template <class T>
  void put(core::Json& out, std::string_view key, T v) const {
    out[std::string(key)] = v;
  }
  template <class T>
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, T& v) const {
    SORTIE_TRY(v, json_get<T>(in, key, path));
    return {};
  }
};

// An integer in lo..hi (bytes: `code`; JSON: command_log.field_type; both say `message`).
template <class T>
struct Range {
  std::string_view code;
  std::string_view message;
  T lo = std::numeric_limits<T>::min();
  T hi = std::numeric_limits<T>::max();

  [[nodiscard]] std::string expected() const { return fmt::format("{}..{}", +lo, +hi); }
  template <class W>
  void write(W& out, T v) const {
    Int{}.write(out, v);
  }
  core::Status read(core::ByteReader& in, std::string_view key, T& v) const {
    const std::size_t at = in.offset();
    SORTIE_CHECK(Int{}.read(in, key, v));
    if (v < lo || v > hi) {
      return core::fail(
          in.error_at(at, std::string(code), std::string(message)).expect(expected(), fmt::format("{}", +v)));
    }
    return {};
  }
  void put(core::Json& out, std::string_view key, T v) const { Int{}.put(out, key, v); }
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, T& v) const {
    SORTIE_CHECK(Int{}.get(in, key, path, v));
    if (v < lo || v > hi) return core::fail(json_range(path, key, message, expected(), fmt::format("{}", +v)));
    return {};
  }
};

// A bool: u8 0|1 (anything else: `code`) | true/false.
struct Flag {
  std::string_view code;

  template <class W>
  void write(W& out, bool v) const {
    out.u8(v ? 1 : 0);
  }
  core::Status read(core::ByteReader& in, std::string_view key, bool& v) const {
    const std::size_t at = in.offset();
    SORTIE_TRY(const std::uint8_t b, in.u8());
    if (b > 1) {
      return core::fail(
          in.error_at(at, std::string(code), fmt::format("{} must be 0 or 1", key)).expect("0|1", std::to_string(b)));
    }
    v = b == 1;
    return {};
  }
  void put(core::Json& out, std::string_view key, bool v) const { out[std::string(key)] = v; }
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, bool& v) const {
    SORTIE_TRY(v, json_get<bool>(in, key, path));
    return {};
  }
};

// A string: u32 length + bytes, at most `max` bytes | a JSON string, at most `max` bytes.
struct Text {
  std::uint32_t max = kMaxPayloadStringBytes;

  template <class W>
  void write(W& out, const std::string& v) const {
    if constexpr (requires { out.lp_string(v); }) {
      out.lp_string(v);
    } else {
      out.str(v);
    }
  }
  core::Status read(core::ByteReader& in, std::string_view, std::string& v) const {
    SORTIE_TRY(v, in.lp_string(max));
    return {};
  }
  void put(core::Json& out, std::string_view key, const std::string& v) const { out[std::string(key)] = v; }
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, std::string& v) const {
    SORTIE_TRY(v, json_get<std::string>(in, key, path));
    if (v.size() > max) {
      return core::fail(json_range(path, key, "string is too long", fmt::format("<= {} bytes", max),
                                   fmt::format("{} bytes", v.size())));
    }
    return {};
  }
};

// An enum 0..names.size()-1: u8 (anything else: `code`) | its name.
struct Names {
  std::string_view code;
  std::string_view message;
  std::span<const std::string_view> names;

  [[nodiscard]] std::string numbered() const {  // "0 circle, 1 capsule"
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i) s += fmt::format("{}{} {}", i == 0 ? "" : ", ", i, names[i]);
    return s;
  }
  template <class W, class E>
  void write(W& out, E v) const {
    out.u8(static_cast<std::uint8_t>(v));
  }
  template <class E>
  core::Status read(core::ByteReader& in, std::string_view, E& v) const {
    const std::size_t at = in.offset();
    SORTIE_TRY(const std::uint8_t b, in.u8());
    if (b >= names.size()) {
      return core::fail(in.error_at(at, std::string(code), std::string(message)).expect(numbered(), std::to_string(b)));
    }
    v = static_cast<E>(b);
    return {};
  }
  template <class E>
  void put(core::Json& out, std::string_view key, E v) const {
    out[std::string(key)] = std::string(names[static_cast<std::size_t>(v)]);
  }
  template <class E>
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, E& v) const {
    SORTIE_TRY(const std::string name, json_get<std::string>(in, key, path));
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == name) {
        v = static_cast<E>(i);
        return {};
      }
    }
    std::string all;
    for (std::string_view n : names) all += (all.empty() ? "" : "|") + std::string(n);
    return core::fail(json_range(path, key, message, std::move(all), name));
  }
};

// Bools packed into one byte, the first in bit 0 (higher bits set: `code`) | one JSON bool each.
struct Bits {
  std::string_view code;
  std::string_view message;
  std::span<const std::string_view> names;  // one per flag
};

struct Id {
  template <class W>
  void write(W& out, const ObjectId& v) const {
    out.u64(v.raw());
  }
  core::Status read(core::ByteReader& in, std::string_view, ObjectId& v) const {
    SORTIE_TRY(const std::uint64_t raw, in.u64());
    v = ObjectId::from_raw(raw);
    return {};
  }
  void put(core::Json& out, std::string_view key, const ObjectId& v) const { json_put_object_id(out, key, v); }
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, ObjectId& v) const {
    SORTIE_TRY(v, json_get_object_id(in, key, path));
    return {};
  }
};

// f32 | "key": value and "key_bits": its u32 bit pattern (what is read: lossless).
struct F32 {
  template <class W>
  void write(W& out, float v) const {
    out.f32(v);
  }
  core::Status read(core::ByteReader& in, std::string_view, float& v) const {
    SORTIE_TRY(v, in.f32());
    return {};
  }
  void put(core::Json& out, std::string_view key, float v) const { json_put_f32(out, key, v); }
  core::Status get(const core::Json& in, std::string_view key, const std::string& path, float& v) const {
    SORTIE_TRY(v, json_get_f32(in, key, path));
    return {};
  }
};

// The spec of a field listed without one.
template <class T, class U = std::remove_cv_t<T>>
using DefaultSpecOf = std::conditional_t<
    std::is_same_v<U, ObjectId>, Id,
    std::conditional_t<std::is_same_v<U, float>, F32, std::conditional_t<std::is_same_v<U, std::string>, Text, Int>>>;

// ---------------------------------------------------------------- visitors

// Writes the fields to a core::ByteWriter (payload bytes) or a world::StateWriter (state hash).
template <class Writer>
class ToBytes {
 public:
  explicit ToBytes(Writer& out) : out_(out) {}
  template <class T, class Spec = DefaultSpecOf<T>>
  void operator()(const T& v, std::string_view, const Spec& spec = Spec{}) {
    spec.write(out_, v);
  }
  template <class... B>
  void bits(const Bits&, const B&... flags) {
    unsigned byte = 0;
    unsigned bit = 1;
    ((byte |= (flags ? bit : 0u), bit <<= 1), ...);
    out_.u8(static_cast<std::uint8_t>(byte));
  }

 private:
  Writer& out_;
};

class FromBytes {
 public:
  explicit FromBytes(core::ByteReader& in) : in_(in) {}
  template <class T, class Spec = DefaultSpecOf<T>>
  void operator()(T& v, std::string_view key, const Spec& spec = Spec{}) {
    if (status_) note(spec.read(in_, key, v), key);
  }
  template <class... B>
  void bits(const Bits& spec, B&... flags) {
    if (!status_) return;
    const std::size_t at = in_.offset();
    auto byte = in_.u8();
    if (!byte) return note(core::fail(std::move(byte).error()), joined(spec));
    if ((*byte >> sizeof...(B)) != 0) {
      return note(
          core::fail(in_.error_at(at, std::string(spec.code), std::string(spec.message))
                         .expect(fmt::format("bits {}..7 clear", sizeof...(B)), fmt::format("0x{:02x}", *byte))),
          joined(spec));
    }
    unsigned bit = 1;
    ((flags = (*byte & bit) != 0, bit <<= 1), ...);
  }
  core::Status status() && { return std::move(status_); }

 private:
  static std::string joined(const Bits& spec) {
    std::string s;
    for (std::string_view n : spec.names) s += (s.empty() ? "" : "|") + std::string(n);
    return s;
  }
  // Keeps the first failure, its field path extended by the key.
  void note(core::Status st, std::string_view key) {
    if (st) return;
    core::Diagnostic d = std::move(st).error();
    d.field = d.field.empty() ? std::string(key) : d.field + "." + std::string(key);
    status_ = core::fail(std::move(d));
  }
  core::ByteReader& in_;
  core::Status status_;
};

class ToJson {
 public:
  explicit ToJson(core::Json& out) : out_(out) {}
  template <class T, class Spec = DefaultSpecOf<T>>
  void operator()(const T& v, std::string_view key, const Spec& spec = Spec{}) {
    spec.put(out_, key, v);
  }
  template <class... B>
  void bits(const Bits& spec, const B&... flags) {
    std::size_t i = 0;
    ((out_[std::string(spec.names[i++])] = static_cast<bool>(flags)), ...);
  }

 private:
  core::Json& out_;
};

class FromJson {
 public:
  FromJson(const core::Json& in, const std::string& path) : in_(in), path_(path) {}
  template <class T, class Spec = DefaultSpecOf<T>>
  void operator()(T& v, std::string_view key, const Spec& spec = Spec{}) {
    if (status_) status_ = spec.get(in_, key, path_, v);
  }
  template <class... B>
  void bits(const Bits& spec, B&... flags) {
    std::size_t i = 0;
    ((*this)(flags, spec.names[i++], Flag{spec.code}), ...);
  }
  core::Status status() && { return std::move(status_); }

 private:
  const core::Json& in_;
  const std::string& path_;
  core::Status status_;
};

}  // namespace sortie::world::field

namespace sortie::world {

template <class P>
void PayloadCodec<P, true>::write(const P& p, core::ByteWriter& out) {
  field::ToBytes<core::ByteWriter> v(out);
  P::fields(p, v);
}

template <class P>
core::Result<P> PayloadCodec<P, true>::read(core::ByteReader& in) {
  P p;
  field::FromBytes v(in);
  P::fields(p, v);
  SORTIE_CHECK(std::move(v).status());
  return p;
}

template <class P>
void PayloadCodec<P, true>::to_json(const P& p, core::Json& out) {
  field::ToJson v(out);
  P::fields(p, v);
}

template <class P>
core::Result<P> PayloadCodec<P, true>::from_json(const core::Json& in, const std::string& path) {
  P p;
  field::FromJson v(in, path);
  P::fields(p, v);
  SORTIE_CHECK(std::move(v).status());
  return p;
}

}  // namespace sortie::world
