#pragma once
// The payload codecs of RsLi library archives (spec iron3d-formats.md §4.2, §4.4):
// the two-byte XOR stream, simple LZSS, adaptive-Huffman LZSS ("LZHUF", canonical
// Okumura/Yoshizaki algorithm) and raw Deflate (RFC 1951, through zlib).
//
// Every decoder produces exactly `unpacked_size` bytes or fails; decoders stop as soon as
// that many bytes were produced (remaining input is ignored). Decoders refuse a declared size
// that their input cannot possibly reach before allocating it. Diagnostic offsets are
// relative to the start of the packed stream.
//
// Codes: rsli.lzss.truncated, rsli.lzhuf.truncated, rsli.deflate.corrupt,
// rsli.deflate.truncated, rsli.deflate.overrun, rsli.deflate.encode, rsli.size_mismatch.
#include <cstddef>
#include <cstdint>
#include <span>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::iron3d {

// The XOR stream of §4.2: state bytes lo = key & 0xFF, hi = key >> 8; for every byte
//   lo = hi ^ (lo << 1); out = in ^ lo; hi = lo ^ (hi >> 1).
// Symmetric: the same call encrypts and decrypts. `apply` continues the stream.
class XorStream {
 public:
  explicit XorStream(std::uint16_t key)
      : lo_(static_cast<std::uint8_t>(key & 0xFFu)), hi_(static_cast<std::uint8_t>(key >> 8)) {}
  std::uint8_t next() {
    lo_ = static_cast<std::uint8_t>(hi_ ^ static_cast<std::uint8_t>(lo_ << 1));
    hi_ = static_cast<std::uint8_t>(lo_ ^ (hi_ >> 1));
    return lo_;
  }
  // XORs `data` in place with the next data.size() stream bytes.
  void apply(std::span<std::uint8_t> data);
  [[nodiscard]] std::uint16_t state() const { return static_cast<std::uint16_t>(lo_ | (hi_ << 8)); }

 private:
  std::uint8_t lo_;
  std::uint8_t hi_;
};

// One-shot helpers: a stream restarted at `key`.
void xor_stream(std::uint16_t key, std::span<std::uint8_t> data);
core::Bytes xor_stream_copy(std::uint16_t key, core::ByteView data);

// Simple LZSS (§4.4.1): 4096-byte ring of 0x20, write position 0xFEE, control bits LSB
// first (1 = literal), references `lo, hi` -> ring offset lo | (hi & 0xF0) << 4, length
// (hi & 0x0F) + 3.
inline constexpr std::size_t kLzssMaxRatio = 9;  // 17 input bytes give at most 144 bytes
core::Result<core::Bytes> lzss_decode(core::ByteView packed, std::size_t unpacked_size);
// Greedy encoder with a hash-chain match finder; references reach 1..4095 bytes back and
// 3..18 bytes long. Decodable by lzss_decode.
core::Bytes lzss_encode(core::ByteView data);

// LZHUF (§4.4.2): N = 4096, F = 60, THRESHOLD = 2, 314 symbols, adaptive Huffman tree
// of 627 nodes, bits MSB first, canonical position decoding.
inline constexpr std::size_t kLzhufMaxRatio = 48;  // a 60-byte copy costs at least 10 bits
core::Result<core::Bytes> lzhuf_decode(core::ByteView packed, std::size_t unpacked_size);
// Greedy encoder (hash-chain matches of 3..60 bytes, 1..4096 back) with the same adaptive
// Huffman model; the last byte is padded with zero bits.
core::Bytes lzhuf_encode(core::ByteView data);

// Raw Deflate (§4.4.3): inflateInit2 with -15 window bits, so a zlib-wrapped stream fails.
// Fails with rsli.deflate.overrun as soon as the output would exceed unpacked_size.
// Input after the end of the Deflate stream is ignored.
inline constexpr std::size_t kDeflateMaxRatio = 1032;
core::Result<core::Bytes> inflate_raw(core::ByteView packed, std::size_t unpacked_size);
core::Result<core::Bytes> deflate_raw(core::ByteView data, int level = 9);

}  // namespace sortie::iron3d
