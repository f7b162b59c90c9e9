#include "sortie/core/bytes.hpp"

#include <fmt/format.h>

#include <limits>

namespace sortie::core {

bool FixedString::has_tail() const {
  auto n = raw.find('\0');
  if (n == std::string::npos) return false;
  for (std::size_t i = n; i < raw.size(); ++i)
    if (raw[i] != '\0') return true;
  return false;
}

FixedString FixedString::make(std::string_view text, std::size_t size) {
  FixedString s;
  s.raw.assign(size, '\0');
  s.raw.replace(0, std::min(size, text.size()), text.substr(0, size));
  return s;
}

Diagnostic ByteReader::error_at(std::size_t rel_offset, std::string code, std::string message) const {
  Diagnostic d = Diagnostic::error(std::move(code), std::move(message));
  d.file = file_;
  d.offset = base_ + rel_offset;
  d.field = field_;
  return d;
}

Diagnostic ByteReader::error(std::string code, std::string message) const {
  return error_at(pos_, std::move(code), std::move(message));
}

Status ByteReader::need(std::size_t n, std::string_view what) const {
  if (n <= remaining()) return {};
  return fail(error(prefix_ + ".eof", fmt::format("unexpected end of data reading {}", what))
                  .expect(fmt::format("{} bytes", n), fmt::format("{} bytes left", remaining())));
}

Result<std::uint8_t> ByteReader::u8() {
  SORTIE_CHECK(need(1, "u8"));
  return data_[pos_++];
}
Result<std::uint16_t> ByteReader::u16() {
  SORTIE_CHECK(need(2, "u16"));
  auto v = load_u16(cursor());
  pos_ += 2;
  return v;
}
Result<std::int16_t> ByteReader::i16() {
  SORTIE_TRY(auto v, u16());
  return static_cast<std::int16_t>(v);
}
Result<std::uint32_t> ByteReader::u32() {
  SORTIE_CHECK(need(4, "u32"));
  auto v = load_u32(cursor());
  pos_ += 4;
  return v;
}
Result<std::int32_t> ByteReader::i32() {
  SORTIE_TRY(auto v, u32());
  return static_cast<std::int32_t>(v);
}
Result<std::uint64_t> ByteReader::u64() {
  SORTIE_CHECK(need(8, "u64"));
  std::uint64_t lo = load_u32(cursor());
  std::uint64_t hi = load_u32(cursor() + 4);
  pos_ += 8;
  return lo | (hi << 32);
}
Result<float> ByteReader::f32() {
  SORTIE_TRY(auto v, u32());
  return std::bit_cast<float>(v);
}
Result<ByteView> ByteReader::bytes(std::size_t n) {
  SORTIE_CHECK(need(n, "bytes"));
  ByteView v = data_.subspan(pos_, n);
  pos_ += n;
  return v;
}
Result<FixedString> ByteReader::fixed_string(std::size_t n) {
  SORTIE_CHECK(need(n, "fixed string"));
  FixedString s;
  s.raw.assign(reinterpret_cast<const char*>(cursor()), n);
  pos_ += n;
  return s;
}
Result<std::string> ByteReader::lp_string(std::uint32_t max) {
  const std::size_t start = pos_;
  SORTIE_TRY(auto len, u32());
  if (len > max)
    return fail(error_at(start, prefix_ + ".string_too_long", "length-prefixed string is longer than allowed")
                    .expect(fmt::format("<= {} bytes", max), fmt::format("{} bytes", len)));
  if (len > remaining())
    return fail(error_at(start, prefix_ + ".eof", "length-prefixed string runs past the end of data")
                    .expect(fmt::format("{} bytes", len), fmt::format("{} bytes left", remaining())));
  std::string s(reinterpret_cast<const char*>(cursor()), len);
  pos_ += len;
  return s;
}
Status ByteReader::skip(std::size_t n) {
  SORTIE_CHECK(need(n, "skipped bytes"));
  pos_ += n;
  return {};
}
Status ByteReader::seek(std::size_t pos) {
  if (pos > data_.size())
    return fail(error(prefix_ + ".seek", "offset lies past the end of data")
                    .expect(fmt::format("<= {}", data_.size()), fmt::format("{}", pos)));
  pos_ = pos;
  return {};
}

Result<std::size_t> ByteReader::check_count(std::uint64_t count, std::uint64_t stride, std::string_view what) const {
  if (stride != 0 && count > std::numeric_limits<std::uint64_t>::max() / stride)
    return fail(error(prefix_ + ".overflow", fmt::format("{} count times record size overflows", what))
                    .expect(fmt::format("{} x {} bytes to fit", count, stride), "overflow"));
  const std::uint64_t total = count * stride;
  if (total > remaining())
    return fail(error(prefix_ + ".eof", fmt::format("{} run past the end of data", what))
                    .expect(fmt::format("{} x {} = {} bytes", count, stride, total),
                            fmt::format("{} bytes left", remaining())));
  return static_cast<std::size_t>(total);
}

Result<std::size_t> ByteReader::check_count(std::uint64_t count, std::uint64_t stride, std::string_view what,
                                            std::uint64_t limit) const {
  if (count > limit)
    return fail(error(prefix_ + ".limit", fmt::format("{} count exceeds the limit", what))
                    .expect(fmt::format("<= {}", limit), fmt::format("{}", count)));
  return check_count(count, stride, what);
}

Status ByteReader::require_end(std::string_view what) const {
  if (at_end()) return {};
  return fail(error(prefix_ + ".trailing", fmt::format("trailing bytes after the end of {}", what))
                  .expect("end of data", fmt::format("{} more bytes", remaining())));
}

void ByteWriter::u16(std::uint16_t v) {
  buf_.push_back(static_cast<std::uint8_t>(v));
  buf_.push_back(static_cast<std::uint8_t>(v >> 8));
}
void ByteWriter::u32(std::uint32_t v) {
  const std::size_t at = buf_.size();
  buf_.resize(at + 4);
  store_u32(buf_.data() + at, v);
}
void ByteWriter::u64(std::uint64_t v) {
  u32(static_cast<std::uint32_t>(v));
  u32(static_cast<std::uint32_t>(v >> 32));
}
void ByteWriter::pad_to(std::size_t alignment) {
  if (alignment == 0) return;
  while (buf_.size() % alignment != 0) buf_.push_back(0);
}
void ByteWriter::lp_string(std::string_view s) {
  u32(static_cast<std::uint32_t>(s.size()));
  bytes(s);
}

std::string to_hex(ByteView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.resize(bytes.size() * 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = kDigits[bytes[i] >> 4];
    out[2 * i + 1] = kDigits[bytes[i] & 15];
  }
  return out;
}

Result<Bytes> from_hex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Bytes out;
  int hi = -1;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
    const int v = nibble(c);
    if (v < 0)
      return fail(Diagnostic::error("hex.digit", "not a hexadecimal digit").at(i).expect("0-9a-f", std::string(1, c)));
    if (hi < 0) {
      hi = v;
    } else {
      out.push_back(static_cast<std::uint8_t>(hi * 16 + v));
      hi = -1;
    }
  }
  if (hi >= 0) return fail(Diagnostic::error("hex.odd", "odd number of hexadecimal digits"));
  return out;
}

}  // namespace sortie::core
