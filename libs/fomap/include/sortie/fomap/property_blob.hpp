#pragma once
// Property blobs of baked map records (spec/fomap.md §10.3, `StoreAllData` full mode) and the
// registrar POD layout they depend on. Independent of the property catalog: a PropertyLayout is
// built by registering plain (fixed-size) and complex properties in registration order.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::fomap {

// POD areas, concatenated in this order; each area's size is rounded up to a multiple of 8.
enum class PodArea : std::uint8_t { public_sync, owner_sync, private_data };

// Layout of one registrar (one entity type on one side).
class PropertyLayout {
 public:
  struct Plain {
    std::string name;
    PodArea area = PodArea::private_data;
    std::uint32_t size = 0;
    std::uint32_t offset = 0;  // absolute in the POD image (valid after finish())
  };
  // Registers a plain property; returns its index among plain properties.
  std::size_t add_plain(std::string name, PodArea area, std::uint32_t size);
  // Registers a complex (string, array, dict) property; returns its complex index.
  std::size_t add_complex(std::string name);
  // Places every plain property: first offset in its area that is a multiple of its size and
  // whose bytes are free (first fit); areas rounded to 8 and concatenated.
  void finish();

  [[nodiscard]] std::uint32_t pod_size() const { return pod_size_; }
  [[nodiscard]] std::size_t complex_count() const { return complex_.size(); }
  [[nodiscard]] const std::vector<Plain>& plain() const { return plain_; }
  [[nodiscard]] const std::vector<std::string>& complex() const { return complex_; }

 private:
  std::vector<Plain> plain_;
  std::vector<std::string> complex_;
  std::uint32_t pod_size_ = 0;
};

// The stored state of one entity: the POD image and one raw value per complex property.
struct PropertyData {
  core::Bytes pod;                   // exactly the layout's pod_size
  std::vector<core::Bytes> complex;  // exactly the layout's complex_count; empty = empty value
  friend bool operator==(const PropertyData&, const PropertyData&) = default;
};

// POD runs: scan from byte 0; a non-zero byte opens a run (if none is open) and the scan jumps
// 4 bytes; a zero byte with an open run closes it; an open run at the end extends to the end.
struct PodRun {
  std::uint32_t start = 0;
  std::uint32_t length = 0;
  friend bool operator==(const PodRun&, const PodRun&) = default;
};
std::vector<PodRun> pod_runs(core::ByteView pod);

// `u32 pod_size, u8 has_base=0, {u32 start, u32 len, data}*, u32 0, u32 0, u32 complex_count,
// {u32 size, data}*`. No padding between the framing fields.
core::Bytes write_property_blob(const PropertyData& data);
// Same from a POD image and views of the complex values (no copies of the state).
core::Bytes write_property_blob(core::ByteView pod, const std::vector<core::ByteView>& complex);
// Same, appended to `out` (the bake writes every record of a map into one buffer).
void append_property_blob(core::ByteView pod, std::span<const core::ByteView> complex, core::Bytes& out);
// Reads a full-mode blob; the POD size and complex count must match the reader's registrar
// (codes `fomap.blob.pod_size`, `fomap.blob.complex_count`); overlay blobs (has_base=1) are
// rejected (`fomap.blob.overlay`); runs must stay inside the POD image (`fomap.blob.run`).
core::Result<PropertyData> read_property_blob(core::ByteView blob, std::uint32_t expected_pod_size,
                                              std::uint32_t expected_complex_count, std::string_view file = {});

// Writer for complex raw encodings: every scalar is first aligned to min(lowest set bit of its
// size, 8) relative to the start of this value's buffer (spec §10.3).
class ComplexWriter {
 public:
  ComplexWriter() = default;
  // Writes into `reuse` (cleared), keeping its capacity.
  explicit ComplexWriter(core::Bytes reuse) : buf_(std::move(reuse)) { buf_.clear(); }
  void align(std::uint32_t size);
  void u8(std::uint8_t v) { buf_.push_back(v); }
  void u16(std::uint16_t v) { scalar_le(v, 2); }
  void u32(std::uint32_t v) { scalar_le(v, 4); }
  void u64(std::uint64_t v) { scalar_le(v, 8); }
  // A scalar of `size` bytes (1, 2, 4 or 8): aligned, then its low `size` bytes little-endian.
  void scalar_le(std::uint64_t v, std::uint32_t size) {
    align(size);
    for (std::uint32_t i = 0; i < size; ++i) buf_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  // A scalar of `size` bytes given as little-endian bytes (size 1, 2, 4 or 8 aligned).
  void scalar(core::ByteView le_bytes) {
    align(static_cast<std::uint32_t>(le_bytes.size()));
    raw(le_bytes);
  }
  void raw(core::ByteView b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  // u32 length (aligned to 4) then the bytes.
  void string(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    raw(core::as_bytes(s));
  }
  [[nodiscard]] std::size_t size() const { return buf_.size(); }
  core::Bytes take() { return std::move(buf_); }

 private:
  core::Bytes buf_;
};

}  // namespace sortie::fomap
