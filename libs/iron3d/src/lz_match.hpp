#pragma once
// Private helpers shared by the LZSS and LZHUF codecs: the hash-chain match finder used by
// the encoders and the window copy used by the decoders.
//
// Both RsLi LZ variants address a 4096-byte ring that starts filled with spaces (0x20). A
// reference that reads ring position q while the output holds `pos` bytes reads the byte
// written `d` = (write position - q) mod 4096 bytes ago (d = 4096 when q is the write
// position itself), or a space when fewer than d bytes have been written. The decoders use
// that identity to copy straight from the output instead of keeping a second ring.
#include <cstdint>
#include <cstring>
#include <vector>

#include "sortie/core/bytes.hpp"

namespace sortie::iron3d::detail {

// Extra bytes allocated after the output so that match copies may write 8-byte chunks.
inline constexpr std::size_t kCopySlack = 64;

// Copies `len` bytes from `d` bytes back (1 <= d <= 4096). `o` points at output index `pos`;
// the buffer holds at least kCopySlack writable bytes after o + len.
inline void window_copy(std::uint8_t* o, std::size_t pos, std::size_t d, std::size_t len) {
  if (d <= pos) {
    const std::uint8_t* src = o - d;
    if (d >= 8) {
      // Each 8-byte chunk reads only bytes written before it (d >= 8).
      std::size_t k = 0;
      do {
        std::memcpy(o + k, src + k, 8);
        k += 8;
      } while (k < len);
    } else {
      for (std::size_t k = 0; k < len; ++k) o[k] = src[k];
    }
    return;
  }
  std::uint8_t* const out = o - pos;  // index from the start of the output: o[k - d] would wrap when k < d
  for (std::size_t k = 0; k < len; ++k) o[k] = (pos + k >= d) ? out[pos + k - d] : std::uint8_t{0x20};
}

// Greedy longest-match search over hash chains of 3-byte prefixes.
class MatchFinder {
 public:
  MatchFinder(core::ByteView data, std::size_t max_distance, std::size_t max_length, unsigned max_chain = 128)
      : data_(data),
        max_distance_(max_distance),
        max_length_(max_length),
        max_chain_(max_chain),
        head_(kHashSize, -1),
        prev_(data.size(), -1) {}

  struct Match {
    std::size_t length = 0;
    std::size_t distance = 0;
  };

  // Longest match at `pos` (length 0 when none of at least 3 bytes).
  [[nodiscard]] Match find(std::size_t pos) const {
    Match best;
    const std::size_t n = data_.size();
    if (n - pos < 3) return best;
    const std::size_t limit = std::min(max_length_, n - pos);
    const std::uint8_t* cur = data_.data() + pos;
    std::int64_t cand = head_[hash(pos)];
    unsigned chain = 0;
    while (cand >= 0 && chain++ < max_chain_) {
      const auto c = static_cast<std::size_t>(cand);
      const std::size_t d = pos - c;
      if (d > max_distance_) break;
      const std::uint8_t* ref = data_.data() + c;
      // best.length < limit here (a full-length match ends the search), so this probe is in range.
      if (ref[best.length] == cur[best.length]) {
        std::size_t l = 0;
        while (l < limit && ref[l] == cur[l]) ++l;
        if (l > best.length) {
          best = {l, d};
          if (l == limit) break;
        }
      }
      cand = prev_[c];
    }
    if (best.length < 3) best = {};
    return best;
  }

  void insert(std::size_t pos) {
    if (data_.size() - pos < 3) return;
    const std::size_t h = hash(pos);
    prev_[pos] = head_[h];
    head_[h] = static_cast<std::int64_t>(pos);
  }

 private:
  static constexpr std::size_t kHashBits = 15;
  static constexpr std::size_t kHashSize = std::size_t{1} << kHashBits;
  [[nodiscard]] std::size_t hash(std::size_t pos) const {
    const std::uint8_t* p = data_.data() + pos;
    const std::uint32_t v = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
                            (static_cast<std::uint32_t>(p[2]) << 16);
    return (v * 2654435761u) >> (32 - kHashBits);
  }
  core::ByteView data_;
  std::size_t max_distance_;
  std::size_t max_length_;
  unsigned max_chain_;
  std::vector<std::int64_t> head_;
  std::vector<std::int64_t> prev_;
};

}  // namespace sortie::iron3d::detail
