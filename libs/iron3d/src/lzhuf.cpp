// Adaptive-Huffman LZSS ("LZHUF") of RsLi methods 0x080/0x0A0 (spec §4.4.2): the canonical
// Okumura/Yoshizaki model, written from the algorithm's description.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "lz_match.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {
namespace {

constexpr std::size_t kWindow = 4096;
constexpr std::size_t kLookahead = 60;  // F
constexpr std::size_t kThreshold = 2;
constexpr unsigned kSymbols = 256 - kThreshold + kLookahead;  // 314
constexpr unsigned kNodes = 2 * kSymbols - 1;                 // T = 627
constexpr unsigned kRoot = kNodes - 1;                        // R = 626
constexpr std::uint32_t kMaxFreq = 0x8000;

// Position tables: the first 8 bits of a position code select the upper 6 bits (d_code)
// and how many bits the whole prefix takes (d_len).
struct PositionTables {
  std::array<std::uint8_t, 256> d_code{};
  std::array<std::uint8_t, 256> d_len{};
  std::array<std::uint8_t, 64> p_code{};  // encoder: prefix bits of each upper value
  std::array<std::uint8_t, 64> p_len{};
};

constexpr PositionTables make_tables() {
  PositionTables t;
  // (number of upper values, prefix length) per group: 1x3 bits, 3x4, 8x5, 12x6, 24x7, 16x8.
  constexpr std::array<std::pair<unsigned, unsigned>, 6> groups{{{1, 3}, {3, 4}, {8, 5}, {12, 6}, {24, 7}, {16, 8}}};
  unsigned index = 0, value = 0;
  for (const auto& [count, bits] : groups) {
    for (unsigned v = 0; v < count; ++v, ++value) {
      const unsigned run = 1u << (8 - bits);
      t.p_code[value] = static_cast<std::uint8_t>(index >> (8 - bits));
      t.p_len[value] = static_cast<std::uint8_t>(bits);
      for (unsigned k = 0; k < run; ++k, ++index) {
        t.d_code[index] = static_cast<std::uint8_t>(value);
        t.d_len[index] = static_cast<std::uint8_t>(bits);
      }
    }
  }
  return t;
}

constexpr PositionTables kTables = make_tables();
static_assert(kTables.d_code[255] == 63 && kTables.d_len[0] == 3 && kTables.d_len[255] == 8);

// The adaptive Huffman tree. Nodes 0..T-1 are kept in ascending frequency order; the
// children of node p are son[p] and son[p] + 1; son >= T names leaf symbol son - T.
class HuffModel {
 public:
  HuffModel() {
    for (unsigned i = 0; i < kSymbols; ++i) {
      freq_[i] = 1;
      son_[i] = i + kNodes;
      parent_[i + kNodes] = i;
    }
    for (unsigned i = 0, j = kSymbols; j <= kRoot; i += 2, ++j) {
      freq_[j] = freq_[i] + freq_[i + 1];
      son_[j] = i;
      parent_[i] = parent_[i + 1] = j;
    }
    freq_[kNodes] = 0xFFFF;  // sentinel above every real frequency
    parent_[kRoot] = 0;
  }

  [[nodiscard]] unsigned root_child() const { return son_[kRoot]; }
  [[nodiscard]] unsigned son(unsigned node) const { return son_[node]; }
  [[nodiscard]] unsigned leaf_parent(unsigned symbol) const { return parent_[symbol + kNodes]; }
  [[nodiscard]] unsigned parent(unsigned node) const { return parent_[node]; }

  void update(unsigned symbol) {
    if (freq_[kRoot] == kMaxFreq) rebuild();
    unsigned c = parent_[symbol + kNodes];
    do {
      const std::uint32_t k = ++freq_[c];
      if (k > freq_[c + 1]) {
        // Move the node past every node of lower frequency: swap with the last of them.
        unsigned l = c + 1;
        while (k > freq_[l + 1]) ++l;
        freq_[c] = freq_[l];
        freq_[l] = k;
        const unsigned i = son_[c];
        parent_[i] = l;
        if (i < kNodes) parent_[i + 1] = l;
        const unsigned j = son_[l];
        son_[l] = i;
        parent_[j] = c;
        if (j < kNodes) parent_[j + 1] = c;
        son_[c] = j;
        c = l;
      }
      c = parent_[c];
    } while (c != 0);
  }

 private:
  void rebuild() {
    unsigned j = 0;
    for (unsigned i = 0; i < kNodes; ++i) {
      if (son_[i] >= kNodes) {
        freq_[j] = (freq_[i] + 1) / 2;
        son_[j] = son_[i];
        ++j;
      }
    }
    for (unsigned i = 0, n = kSymbols; n < kNodes; i += 2, ++n) {
      const std::uint32_t f = freq_[i] + freq_[i + 1];
      unsigned k = n - 1;
      while (f < freq_[k]) --k;
      ++k;
      for (unsigned m = n; m > k; --m) {
        freq_[m] = freq_[m - 1];
        son_[m] = son_[m - 1];
      }
      freq_[k] = f;
      son_[k] = i;
    }
    for (unsigned i = 0; i < kNodes; ++i) {
      const unsigned k = son_[i];
      if (k >= kNodes) {
        parent_[k] = i;
      } else {
        parent_[k] = parent_[k + 1] = i;
      }
    }
  }

  std::array<std::uint32_t, kNodes + 1> freq_{};
  std::array<unsigned, kNodes + kSymbols> parent_{};
  std::array<unsigned, kNodes> son_{};
};

class BitReader {
 public:
  explicit BitReader(core::ByteView in) : p_(in.data()), end_(in.data() + in.size()), size_(in.size()) {}
  // False when the input is exhausted.
  bool bits(unsigned count, unsigned& value) {
    while (avail_ < count) {
      if (p_ == end_) return false;
      buf_ = (buf_ << 8) | *p_++;
      avail_ += 8;
    }
    avail_ -= count;
    value = static_cast<unsigned>((buf_ >> avail_) & ((1u << count) - 1u));
    return true;
  }
  [[nodiscard]] std::size_t byte_offset() const { return size_ - static_cast<std::size_t>(end_ - p_); }

 private:
  const std::uint8_t* p_;
  const std::uint8_t* end_;
  std::size_t size_;
  std::uint64_t buf_ = 0;
  unsigned avail_ = 0;
};

class BitWriter {
 public:
  void bit(unsigned b) {
    acc_ = static_cast<unsigned>((acc_ << 1) | (b & 1u));
    if (++count_ == 8) {
      out_.push_back(static_cast<std::uint8_t>(acc_));
      acc_ = 0;
      count_ = 0;
    }
  }
  void bits(unsigned value, unsigned count) {
    for (unsigned k = count; k-- > 0;) bit((value >> k) & 1u);
  }
  core::Bytes finish() {
    if (count_ != 0) out_.push_back(static_cast<std::uint8_t>(acc_ << (8 - count_)));
    count_ = 0;
    acc_ = 0;
    return std::move(out_);
  }

 private:
  core::Bytes out_;
  unsigned acc_ = 0;
  unsigned count_ = 0;
};

core::Diagnostic truncated(std::size_t offset, std::size_t produced, std::size_t wanted) {
  return core::Diagnostic::error("rsli.lzhuf.truncated", "LZHUF stream ends before the declared unpacked size")
      .at(offset)
      .expect(fmt::format("{} bytes of output", wanted), fmt::format("{} bytes", produced));
}

}  // namespace

core::Result<core::Bytes> lzhuf_decode(core::ByteView packed, std::size_t unpacked_size) {
  if (unpacked_size == 0) return core::Bytes{};
  if (unpacked_size > packed.size() * kLzhufMaxRatio + kLookahead)
    return core::fail(truncated(packed.size(), 0, unpacked_size)
                          .expect(fmt::format("{} bytes of output", unpacked_size),
                                  fmt::format("{} input bytes give at most {} bytes", packed.size(),
                                              packed.size() * kLzhufMaxRatio + kLookahead)));
  core::Bytes out(unpacked_size + detail::kCopySlack);
  std::uint8_t* const base = out.data();
  std::size_t pos = 0;
  HuffModel model;
  BitReader in(packed);
  while (pos < unpacked_size) {
    unsigned node = model.root_child();
    while (node < kNodes) {
      unsigned b = 0;
      if (!in.bits(1, b)) return core::fail(truncated(in.byte_offset(), pos, unpacked_size));
      node = model.son(node + b);
    }
    const unsigned symbol = node - kNodes;
    model.update(symbol);
    if (symbol < 256) {
      base[pos++] = static_cast<std::uint8_t>(symbol);
      continue;
    }
    unsigned i = 0;
    if (!in.bits(8, i)) return core::fail(truncated(in.byte_offset(), pos, unpacked_size));
    const unsigned upper = kTables.d_code[i];
    for (unsigned extra = kTables.d_len[i] - 2u; extra > 0; --extra) {
      unsigned b = 0;
      if (!in.bits(1, b)) return core::fail(truncated(in.byte_offset(), pos, unpacked_size));
      i = (i << 1) | b;
    }
    const std::size_t distance = ((upper << 6) | (i & 0x3Fu)) + 1u;  // 1..4096
    const std::size_t len = std::min<std::size_t>(symbol - 253u, unpacked_size - pos);
    detail::window_copy(base + pos, pos, distance, len);
    pos += len;
  }
  out.resize(unpacked_size);
  return out;
}

core::Bytes lzhuf_encode(core::ByteView data) {
  HuffModel model;
  BitWriter w;
  std::array<std::uint8_t, kNodes> path{};
  auto put_symbol = [&](unsigned symbol) {
    std::size_t depth = 0;
    for (unsigned k = model.leaf_parent(symbol); k != kRoot; k = model.parent(k)) {
      path[depth++] = static_cast<std::uint8_t>(k - model.son(model.parent(k)));
    }
    while (depth > 0) w.bit(path[--depth]);
    model.update(symbol);
  };
  detail::MatchFinder finder(data, kWindow, kLookahead);
  std::size_t pos = 0;
  while (pos < data.size()) {
    const auto m = finder.find(pos);
    if (m.length > kThreshold) {
      put_symbol(static_cast<unsigned>(255 - kThreshold + m.length));
      const auto code = static_cast<unsigned>(m.distance - 1);
      const unsigned upper = code >> 6;
      w.bits(kTables.p_code[upper], kTables.p_len[upper]);
      w.bits(code & 0x3Fu, 6);
      for (std::size_t k = 0; k < m.length; ++k) finder.insert(pos + k);
      pos += m.length;
    } else {
      put_symbol(data[pos]);
      finder.insert(pos);
      ++pos;
    }
  }
  return w.finish();
}

}  // namespace sortie::iron3d
