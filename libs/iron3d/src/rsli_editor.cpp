// RsLi archive editor and rebuilding writer (spec §4.6, avoiding the listed defects).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "sortie/core/text.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;

namespace {

bool uses_xor_bits(std::uint16_t method_bits) {
  return rsli_method_known(method_bits) && rsli_method_uses_xor(static_cast<RsliMethod>(method_bits));
}

std::int16_t with_method(std::int16_t flags, RsliMethod method) {
  const auto kept = static_cast<std::uint16_t>(static_cast<std::uint16_t>(flags) & ~kRsliMethodMask);
  return static_cast<std::int16_t>(kept | static_cast<std::uint16_t>(method));
}

}  // namespace

core::Result<RsliEditor> RsliEditor::open(const RsliArchive& archive) {
  RsliEditor ed;
  ed.header_ = archive.header;
  ed.original_ = write_rsli(archive);
  if (archive.ao_overlay) {
    std::array<std::uint8_t, kRsliTrailerSize> t{};
    std::copy_n(archive.image.end() - static_cast<std::ptrdiff_t>(kRsliTrailerSize), kRsliTrailerSize, t.begin());
    ed.trailer_ = t;
  }
  ed.items_.reserve(archive.entries.size());
  for (std::size_t i = 0; i < archive.entries.size(); ++i) {
    const RsliEntry& e = archive.entries[i];
    Item item;
    item.name = e.name;
    item.service = e.service;
    item.flags = e.flags;
    item.unpacked_size = e.unpacked_size;
    const core::ByteView packed = archive.packed_bytes(i);
    item.packed.assign(packed.begin(), packed.end());
    if (uses_xor_bits(e.method_bits())) xor_stream(e.xor_key(), item.packed);
    ed.items_.push_back(std::move(item));
  }
  return ed;
}

RsliEditor RsliEditor::create(std::uint16_t xor_seed) {
  RsliEditor ed;
  ed.header_.raw[0] = 'N';
  ed.header_.raw[1] = 'L';
  ed.header_.raw[3] = 1;
  core::store_u16(ed.header_.raw.data() + 14, kRsliPresorted);
  core::store_u32(ed.header_.raw.data() + 20, xor_seed);
  ed.modified_ = true;
  return ed;
}

RsliEditor RsliEditor::create(const RsliHeader& header,
                              std::optional<std::array<std::uint8_t, kRsliTrailerSize>> trailer) {
  RsliEditor ed;
  ed.header_ = header;
  ed.trailer_ = trailer;
  ed.modified_ = true;
  return ed;
}

core::Status RsliEditor::add_item(Item item) {
  if (item.name.raw.size() != kRsliNameSize || item.name.text().empty())
    return fail(Diagnostic::error("rsli.edit.name", "entry name field must be 12 bytes with a non-empty name")
                    .in("name")
                    .expect("1..12 bytes", fmt::format("{} bytes", item.name.text().size())));
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (items_[i].name.text() == item.name.text())
      return fail(Diagnostic::error("rsli.edit.duplicate_name", "an entry with this name already exists")
                      .in(fmt::format("entries[{}].name", i))
                      .expect("a new name", std::string(item.name.text())));
  if (items_.size() >= 0x7FFF)
    return fail(Diagnostic::error("rsli.edit.full", "an RsLi library holds at most 32767 entries"));
  items_.push_back(std::move(item));
  modified_ = true;
  return {};
}

std::optional<std::size_t> RsliEditor::find(std::string_view name) const {
  const std::string key = core::ascii_upper(name.substr(0, name.find('\0')));
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (items_[i].name.text() == key) return i;
  return std::nullopt;
}

core::Result<core::FixedString> RsliEditor::check_name(std::string_view name, std::optional<std::size_t> except) const {
  if (name.empty() || name.size() > kRsliNameSize || name.find('\0') != std::string_view::npos)
    return fail(Diagnostic::error("rsli.edit.name", "entry name must be 1..12 bytes without NUL")
                    .in("name")
                    .expect("1..12 bytes, no NUL", fmt::format("{} bytes", name.size())));
  const std::string upper = core::ascii_upper(name);
  if (auto found = find(upper); found && found != except)
    return fail(Diagnostic::error("rsli.edit.duplicate_name", "an entry with this name already exists")
                    .in(fmt::format("entries[{}].name", *found))
                    .expect("a new name", upper));
  return core::FixedString::make(upper, kRsliNameSize);
}

core::Status RsliEditor::check_index(std::size_t index) const {
  if (index < items_.size()) return {};
  return fail(Diagnostic::error("rsli.index", "no entry with this index")
                  .expect(fmt::format("< {}", items_.size()), fmt::format("{}", index)));
}

core::Status RsliEditor::add(std::string_view name, core::ByteView data, RsliMethod method) {
  SORTIE_TRY(auto fixed, check_name(name, std::nullopt));
  if (items_.size() >= 0x7FFF)
    return fail(Diagnostic::error("rsli.edit.full", "an RsLi library holds at most 32767 entries"));
  if (data.size() > kRsliEditMaxPayload)
    return fail(Diagnostic::error("rsli.edit.too_large", "payload exceeds 128 MiB")
                    .expect(fmt::format("<= {} bytes", kRsliEditMaxPayload), fmt::format("{} bytes", data.size())));
  SORTIE_TRY(auto packed, pack_rsli_payload(data, method));
  Item item;
  item.name = std::move(fixed);
  item.flags = with_method(0, method);
  item.unpacked_size = static_cast<std::uint32_t>(data.size());
  item.packed = std::move(packed);
  items_.push_back(std::move(item));
  modified_ = true;
  return {};
}

core::Status RsliEditor::replace(std::size_t index, core::ByteView data, RsliMethod method) {
  SORTIE_CHECK(check_index(index));
  if (data.size() > kRsliEditMaxPayload)
    return fail(Diagnostic::error("rsli.edit.too_large", "payload exceeds 128 MiB")
                    .expect(fmt::format("<= {} bytes", kRsliEditMaxPayload), fmt::format("{} bytes", data.size())));
  SORTIE_TRY(auto packed, pack_rsli_payload(data, method));
  Item& item = items_[index];
  item.flags = with_method(item.flags, method);
  item.unpacked_size = static_cast<std::uint32_t>(data.size());
  item.packed = std::move(packed);
  modified_ = true;
  return {};
}

core::Status RsliEditor::remove(std::size_t index) {
  SORTIE_CHECK(check_index(index));
  items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(index));
  modified_ = true;
  return {};
}

core::Status RsliEditor::rename(std::size_t index, std::string_view name) {
  SORTIE_CHECK(check_index(index));
  SORTIE_TRY(auto fixed, check_name(name, index));
  items_[index].name = std::move(fixed);
  modified_ = true;
  return {};
}

core::Result<core::Bytes> RsliEditor::write() const {
  if (!modified_) return original_;
  const std::size_t n = items_.size();
  std::vector<std::int16_t> cells(n);
  std::iota(cells.begin(), cells.end(), std::int16_t{0});
  std::stable_sort(cells.begin(), cells.end(), [&](std::int16_t a, std::int16_t b) {
    return items_[static_cast<std::size_t>(a)].name.text() < items_[static_cast<std::size_t>(b)].name.text();
  });
  const std::uint64_t overlay = trailer_ ? core::load_u32(trailer_->data() + 2) : 0;
  std::uint64_t pos = kRsliHeaderSize + n * kRsliRowSize;
  core::ByteWriter rows(n * kRsliRowSize);
  core::ByteWriter payloads;
  for (std::size_t i = 0; i < n; ++i) {
    const Item& item = items_[i];
    if (pos < overlay)
      return fail(Diagnostic::error("rsli.edit.overlay", "AO overlay is larger than a payload position")
                      .in(fmt::format("entries[{}].data_offset_raw", i))
                      .expect(fmt::format("overlay <= {}", pos), fmt::format("{}", overlay)));
    if (pos + item.packed.size() > 0xFFFFFFFFull)
      return fail(Diagnostic::error("rsli.edit.too_large", "library would exceed 4 GiB"));
    rows.fixed_string(item.name);
    rows.bytes(core::ByteView(item.service));
    rows.i16(item.flags);
    rows.i16(cells[i]);  // row i holds the original index of the i-th name in sorted order
    rows.u32(item.unpacked_size);
    rows.u32(static_cast<std::uint32_t>(pos - overlay));
    rows.u32(static_cast<std::uint32_t>(item.packed.size()));
    const auto method = static_cast<std::uint16_t>(static_cast<std::uint16_t>(item.flags) & kRsliMethodMask);
    if (uses_xor_bits(method)) {
      // The reader keys XOR payloads with the row's cell, which is cells[i] here.
      payloads.bytes(xor_stream_copy(static_cast<std::uint16_t>(cells[i]), item.packed));
    } else {
      payloads.bytes(item.packed);
    }
    pos += item.packed.size();
  }
  // The reader bounds the overlay by the file length, which a rebuild may shrink below it
  // (a library with no entries, or payloads that became smaller).
  if (trailer_ && overlay > pos + kRsliTrailerSize)
    return fail(Diagnostic::error("rsli.edit.overlay", "AO overlay would lie past the end of the rebuilt library")
                    .in("trailer.overlay")
                    .expect(fmt::format("overlay <= {}", pos + kRsliTrailerSize), fmt::format("{}", overlay)));
  RsliHeader header = header_;
  core::store_u16(header.raw.data() + 4, static_cast<std::uint16_t>(n));
  core::Bytes table = rows.take();
  xor_stream(header.table_key(), table);
  core::ByteWriter out(static_cast<std::size_t>(pos) + kRsliTrailerSize);
  out.bytes(core::ByteView(header.raw));
  out.bytes(table);
  out.bytes(payloads.buffer());
  if (trailer_) {
    out.bytes(core::ByteView(*trailer_));
  } else if (const auto& b = out.buffer();
             b.size() >= kRsliTrailerSize && b[b.size() - 6] == 'A' && b[b.size() - 5] == 'O') {
    return fail(Diagnostic::error("rsli.edit.trailer_ambiguity",
                                  "the rebuilt library would end in bytes that read as an AO trailer")
                    .at(b.size() - 6)
                    .expect("last 6 bytes not starting with \"AO\"", "\"AO\""));
  }
  return out.take();
}

}  // namespace sortie::iron3d
