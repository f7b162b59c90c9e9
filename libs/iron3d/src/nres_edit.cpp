// NresEditor: add / replace / remove / rename with lossless-layout or canonical encoding (§3.4).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "nres_internal.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;

NresEditor::NresEditor(const NresArchive& archive) {
  const std::size_t count = archive.entries.size();
  entries_.reserve(count);
  ids_.reserve(count);
  struct Piece {
    std::uint32_t start, end;
    bool is_gap;
    std::uint32_t ref;  // entry index or gap index
  };
  std::vector<Piece> pieces;
  pieces.reserve(count + archive.gaps.size());
  for (std::size_t i = 0; i < count; ++i) {
    const NresEntry& e = archive.entries[i];
    const core::ByteView p = archive.payload(i);
    entries_.push_back(Entry{e.type_id, e.attr1, e.attr2, e.attr3, e.name.to_fixed(), core::Bytes(p.begin(), p.end())});
    ids_.push_back(next_id_++);
    pieces.push_back({e.data_offset, e.data_offset + e.size, false, static_cast<std::uint32_t>(i)});
  }
  for (std::size_t g = 0; g < archive.gaps.size(); ++g)
    pieces.push_back(
        {archive.gaps[g].offset, archive.gaps[g].offset + archive.gaps[g].size, true, static_cast<std::uint32_t>(g)});
  // File order; a zero-length payload at a gap's start stays before the gap (its end is smaller).
  std::sort(pieces.begin(), pieces.end(), [](const Piece& x, const Piece& y) {
    if (x.start != y.start) return x.start < y.start;
    if (x.end != y.end) return x.end < y.end;
    if (x.is_gap != y.is_gap) return !x.is_gap;
    return x.ref < y.ref;
  });
  layout_.reserve(pieces.size());
  for (const Piece& p : pieces) {
    Segment s;
    s.is_gap = p.is_gap;
    if (p.is_gap) {
      const core::ByteView b = archive.gap_bytes(p.ref);
      s.gap.assign(b.begin(), b.end());
    } else {
      s.entry_id = ids_[p.ref];
    }
    layout_.push_back(std::move(s));
  }
}

std::optional<std::size_t> NresEditor::find(std::string_view name) const {
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (nres_compare_names(entries_[i].name.text(), name) == 0) return i;
  return std::nullopt;
}

namespace {
Diagnostic bad_index(std::size_t index, std::size_t size) {
  return Diagnostic::error("nres.entry_index", "no entry with this index")
      .expect(fmt::format("< {}", size), std::to_string(index));
}
}  // namespace

core::Result<std::size_t> NresEditor::add(NresEntrySpec spec) {
  SORTIE_TRY(auto name, detail::raw_name_field(spec.name));
  // Keep new payloads 8-aligned after whatever the data region currently holds, and pad after
  // them too: the padding is a zero gap segment, computed at encode time from the position.
  entries_.push_back(Entry{spec.type_id, spec.attr1, spec.attr2, spec.attr3, std::move(name), std::move(spec.payload)});
  ids_.push_back(next_id_);
  Segment pad;
  pad.is_gap = true;
  pad.entry_id = 0xffffffffu;  // marks "align to 8 here" (gap bytes computed when encoding)
  layout_.push_back(std::move(pad));
  Segment s;
  s.entry_id = next_id_++;
  layout_.push_back(std::move(s));
  Segment tail_pad;
  tail_pad.is_gap = true;
  tail_pad.entry_id = 0xffffffffu;
  layout_.push_back(std::move(tail_pad));
  return entries_.size() - 1;
}

core::Status NresEditor::replace(std::size_t index, core::Bytes payload) {
  if (index >= entries_.size()) return fail(bad_index(index, entries_.size()));
  entries_[index].payload = std::move(payload);
  return {};
}

core::Status NresEditor::remove(std::size_t index) {
  if (index >= entries_.size()) return fail(bad_index(index, entries_.size()));
  const std::uint32_t id = ids_[index];
  std::erase_if(layout_, [id](const Segment& s) { return !s.is_gap && s.entry_id == id; });
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(index));
  ids_.erase(ids_.begin() + static_cast<std::ptrdiff_t>(index));
  return {};
}

core::Status NresEditor::rename(std::size_t index, std::string_view new_name) {
  if (index >= entries_.size()) return fail(bad_index(index, entries_.size()));
  SORTIE_CHECK(nres_validate_new_name(new_name));
  entries_[index].name = core::FixedString::make(new_name, kNresNameSize);
  return {};
}

core::Status NresEditor::set_attributes(std::size_t index, std::uint32_t type_id, std::uint32_t attr1,
                                        std::uint32_t attr2, std::uint32_t attr3) {
  if (index >= entries_.size()) return fail(bad_index(index, entries_.size()));
  Entry& e = entries_[index];
  e.type_id = type_id;
  e.attr1 = attr1;
  e.attr2 = attr2;
  e.attr3 = attr3;
  return {};
}

core::Result<core::Bytes> NresEditor::encode_canonical() const {
  std::vector<detail::RowRef> rows(entries_.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Entry& e = entries_[i];
    rows[i] = {e.type_id, e.attr1, e.attr2, e.attr3, e.name.raw, e.payload};
  }
  return detail::encode_canonical(rows);
}

core::Result<core::Bytes> NresEditor::encode_lossless_layout() const {
  // id -> entry index
  std::vector<std::uint32_t> index_of(next_id_, 0xffffffffu);
  for (std::size_t i = 0; i < ids_.size(); ++i) index_of[ids_[i]] = static_cast<std::uint32_t>(i);

  core::ByteWriter w;
  w.zeros(kNresHeaderSize);
  std::vector<std::uint32_t> offsets(entries_.size(), 0);
  for (const Segment& s : layout_) {
    if (s.is_gap) {
      if (s.entry_id == 0xffffffffu)
        w.pad_to(kNresAlignment);
      else
        w.bytes(s.gap);
      continue;
    }
    const std::uint32_t i = index_of[s.entry_id];
    if (w.size() > 0xffffffffull) break;  // reported below
    offsets[i] = static_cast<std::uint32_t>(w.size());
    w.bytes(entries_[i].payload);
  }
  const std::uint64_t total = w.size() + std::uint64_t{entries_.size()} * kNresRecordSize;
  if (total > 0xffffffffull || entries_.size() > 0x7fffffffull)
    return fail(Diagnostic::error("nres.limit", "archive would exceed 4 GiB")
                    .expect("total_size < 2^32", std::to_string(total)));

  std::vector<std::string_view> names(entries_.size());
  for (std::size_t i = 0; i < entries_.size(); ++i) names[i] = entries_[i].name.text();
  const std::vector<std::uint32_t> order = nres_sort_table(names);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    w.u32(e.type_id);
    w.u32(e.attr1);
    w.u32(e.attr2);
    w.u32(static_cast<std::uint32_t>(e.payload.size()));
    w.u32(e.attr3);
    w.fixed_string(e.name);
    w.u32(offsets[i]);
    w.u32(order[i]);
  }
  core::Bytes out = w.take();
  detail::put_header(out, kNresVersion, static_cast<std::uint32_t>(entries_.size()),
                     static_cast<std::uint32_t>(out.size()));
  return out;
}

}  // namespace sortie::iron3d
