#pragma once
// Bounded little-endian byte reading and writing.
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::core {

using Bytes = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

inline ByteView as_bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}
inline std::string_view as_chars(ByteView b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// Unchecked little-endian loads/stores for hot loops that have already bounded their range.
inline std::uint16_t load_u16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}
inline std::uint32_t load_u32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  return v;
}
inline std::int16_t load_i16(const std::uint8_t* p) {
  return static_cast<std::int16_t>(load_u16(p));
}
inline std::int32_t load_i32(const std::uint8_t* p) {
  return static_cast<std::int32_t>(load_u32(p));
}
inline float load_f32(const std::uint8_t* p) {
  return std::bit_cast<float>(load_u32(p));
}
inline void store_u16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}
inline void store_u32(std::uint8_t* p, std::uint32_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}

// A fixed-size string field: the logical text ends at the first NUL; every byte of the
// field (including the bytes after the NUL) is kept for lossless writing.
struct FixedString {
  std::string raw;  // exactly the field's size, all bytes
  [[nodiscard]] bool has_nul() const { return raw.find('\0') != std::string::npos; }
  [[nodiscard]] std::string_view text() const {
    auto n = raw.find('\0');
    return std::string_view(raw).substr(0, n == std::string::npos ? raw.size() : n);
  }
  // Bytes after the first NUL that are not zero (interesting to show to a modder).
  [[nodiscard]] bool has_tail() const;
  // Field of `size` bytes holding `text` followed by zero bytes. Caller checks text fits.
  static FixedString make(std::string_view text, std::size_t size);
  bool operator==(const FixedString&) const = default;
};

// Bounded cursor over a byte span. Every read checks the bytes left; every failure is a
// Diagnostic with the absolute offset (base_offset + cursor) and the file name.
class ByteReader {
 public:
  explicit ByteReader(ByteView data, std::string file = {}, std::uint64_t base_offset = 0)
      : data_(data), file_(std::move(file)), base_(base_offset) {}

  [[nodiscard]] std::size_t offset() const { return pos_; }  // relative to the span
  [[nodiscard]] std::uint64_t absolute_offset() const { return base_ + pos_; }
  [[nodiscard]] std::size_t size() const { return data_.size(); }
  [[nodiscard]] std::size_t remaining() const { return data_.size() - pos_; }
  [[nodiscard]] bool at_end() const { return pos_ == data_.size(); }
  [[nodiscard]] ByteView data() const { return data_; }
  [[nodiscard]] const std::string& file() const { return file_; }
  // Pointer to the current position; valid for remaining() bytes.
  [[nodiscard]] const std::uint8_t* cursor() const { return data_.data() + pos_; }

  // Field path used in diagnostics produced by this reader (e.g. "clans[2]").
  void set_field(std::string field) { field_ = std::move(field); }
  [[nodiscard]] const std::string& field() const { return field_; }

  Result<std::uint8_t> u8();
  Result<std::uint16_t> u16();
  Result<std::int16_t> i16();
  Result<std::uint32_t> u32();
  Result<std::int32_t> i32();
  Result<std::uint64_t> u64();
  Result<float> f32();
  Result<ByteView> bytes(std::size_t n);
  Result<FixedString> fixed_string(std::size_t n);
  // u32 byte length then that many bytes; rejects length > max before touching the payload.
  Result<std::string> lp_string(std::uint32_t max = 64 * 1024);
  Status skip(std::size_t n);
  Status seek(std::size_t pos);  // relative to the span; pos <= size()

  // Overflow-checked count * stride, compared with the bytes left. Call before allocating
  // `count` records. Returns the byte total. `what` names the array ("paths", "points").
  Result<std::size_t> check_count(std::uint64_t count, std::uint64_t stride, std::string_view what) const;
  // Also rejects count > limit (default one million) with code "<prefix>.limit".
  Result<std::size_t> check_count(std::uint64_t count, std::uint64_t stride, std::string_view what,
                                  std::uint64_t limit) const;
  // Error "trailing bytes" unless the cursor is at the end.
  Status require_end(std::string_view what = "payload") const;

  // Diagnostic located at the current position (or at a given relative offset).
  [[nodiscard]] Diagnostic error(std::string code, std::string message) const;
  [[nodiscard]] Diagnostic error_at(std::size_t rel_offset, std::string code, std::string message) const;

  // Code prefix for generic errors ("eof", "overflow", ...): "nres" makes "nres.eof".
  void set_code_prefix(std::string prefix) { prefix_ = std::move(prefix); }

 private:
  Status need(std::size_t n, std::string_view what) const;
  ByteView data_;
  std::string file_;
  std::string field_;
  std::string prefix_ = "bytes";
  std::uint64_t base_ = 0;
  std::size_t pos_ = 0;
};

// Growable little-endian writer.
class ByteWriter {
 public:
  ByteWriter() = default;
  explicit ByteWriter(std::size_t reserve) { buf_.reserve(reserve); }
  void u8(std::uint8_t v) { buf_.push_back(v); }
  void u16(std::uint16_t v);
  void i16(std::int16_t v) { u16(static_cast<std::uint16_t>(v)); }
  void u32(std::uint32_t v);
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void u64(std::uint64_t v);
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void bytes(ByteView b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  void bytes(std::string_view s) { bytes(as_bytes(s)); }
  void zeros(std::size_t n) { buf_.insert(buf_.end(), n, 0); }
  void pad_to(std::size_t alignment);  // zero bytes until size() % alignment == 0
  // Writes exactly raw.size() bytes of a fixed field.
  void fixed_string(const FixedString& s) { bytes(s.raw); }
  // u32 length + bytes.
  void lp_string(std::string_view s);
  void patch_u32(std::size_t pos, std::uint32_t v) { store_u32(buf_.data() + pos, v); }
  [[nodiscard]] std::size_t size() const { return buf_.size(); }
  [[nodiscard]] const Bytes& buffer() const { return buf_; }
  Bytes take() { return std::move(buf_); }

 private:
  Bytes buf_;
};

// Hex dump helpers for JSON and diagnostics.
std::string to_hex(ByteView bytes);  // "0a1b2c"
Result<Bytes> from_hex(std::string_view hex);

}  // namespace sortie::core
