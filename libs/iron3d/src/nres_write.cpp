// NRes writers (spec §3.4): lossless, canonical compact, builder; shared name helpers.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <numeric>

#include "nres_internal.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;

int nres_compare_names(std::string_view a, std::string_view b) {
  return core::icompare_ascii(a, b);
}

std::vector<std::uint32_t> nres_sort_table(std::span<const std::string_view> names) {
  std::vector<std::uint32_t> order(names.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::uint32_t x, std::uint32_t y) { return nres_compare_names(names[x], names[y]) < 0; });
  return order;
}

std::optional<std::string> nres_type_tag_text(std::uint32_t type_id) {
  std::string s(4, ' ');
  for (int i = 0; i < 4; ++i) {
    const auto c = static_cast<unsigned char>(type_id >> (8 * i));
    if (c < 0x20 || c > 0x7e) return std::nullopt;
    s[static_cast<std::size_t>(i)] = static_cast<char>(c);
  }
  return s;
}

std::optional<std::uint32_t> parse_nres_type_id(std::string_view text) {
  // A number first (decimal or 0x hex), so "1234" and "0x15" are numbers; else a 4-byte tag.
  std::string_view digits = text;
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint32_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size()) return v;
  if (text.size() != 4) return std::nullopt;
  v = 0;
  for (std::size_t i = 4; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(text[i]);
  return v;
}

core::Status nres_validate_new_name(std::string_view name) {
  if (name.empty())
    return fail(Diagnostic::error("nres.empty_name", "entry name is empty").expect("1..35 bytes", "0 bytes"));
  if (name.find('\0') != std::string_view::npos)
    return fail(Diagnostic::error("nres.name_nul", "entry name contains a NUL byte")
                    .expect("no NUL", core::to_hex(core::as_bytes(name))));
  if (name.size() > kNresMaxNameLength)
    return fail(Diagnostic::error("nres.name_length", "entry name longer than 35 bytes")
                    .expect("<= 35 bytes", fmt::format("{} bytes", name.size())));
  return {};
}

namespace detail {

void put_header(core::Bytes& out, std::uint32_t version, std::uint32_t count, std::uint32_t total) {
  std::array<std::uint8_t, kNresHeaderSize> h{'N', 'R', 'e', 's'};
  core::store_u32(h.data() + 4, version);
  core::store_u32(h.data() + 8, count);
  core::store_u32(h.data() + 12, total);
  if (out.size() >= h.size()) std::copy(h.begin(), h.end(), out.begin());
}

core::Result<core::FixedString> raw_name_field(std::string_view name) {
  if (name.size() > kNresNameSize || (name.size() == kNresNameSize && name.find('\0') == std::string_view::npos))
    return fail(Diagnostic::error("nres.name_length", "entry name does not fit the 36-byte field with its NUL")
                    .expect("<= 35 bytes before the NUL", fmt::format("{} bytes", name.size())));
  if (name.empty() || name[0] == '\0')
    return fail(Diagnostic::error("nres.empty_name", "entry name is empty").expect("1..35 bytes", "empty"));
  return core::FixedString::make(name, kNresNameSize);
}

core::Result<core::Bytes> encode_canonical(std::span<const RowRef> rows) {
  std::uint64_t total = kNresHeaderSize;
  for (const RowRef& row : rows) total += (row.payload.size() + kNresAlignment - 1) / kNresAlignment * kNresAlignment;
  const std::uint64_t data_end = total;
  total += rows.size() * kNresRecordSize;
  if (total > 0xffffffffull || rows.size() > 0x7fffffffull)
    return fail(Diagnostic::error("nres.limit", "archive would exceed 4 GiB or 2^31 entries")
                    .expect("total_size < 2^32", std::to_string(total)));

  std::vector<std::string_view> names(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) names[i] = rows[i].name_raw.substr(0, rows[i].name_raw.find('\0'));
  const std::vector<std::uint32_t> order = nres_sort_table(names);

  core::Bytes out(static_cast<std::size_t>(total), 0);
  put_header(out, kNresVersion, static_cast<std::uint32_t>(rows.size()), static_cast<std::uint32_t>(total));
  std::size_t pos = kNresHeaderSize;
  std::uint8_t* dir = out.data() + data_end;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const RowRef& row = rows[i];
    if (!row.payload.empty()) std::memcpy(out.data() + pos, row.payload.data(), row.payload.size());
    std::uint8_t* rec = dir + i * kNresRecordSize;
    core::store_u32(rec, row.type_id);
    core::store_u32(rec + 4, row.attr1);
    core::store_u32(rec + 8, row.attr2);
    core::store_u32(rec + 12, static_cast<std::uint32_t>(row.payload.size()));
    core::store_u32(rec + 16, row.attr3);
    std::memcpy(rec + 20, row.name_raw.data(), std::min(row.name_raw.size(), kNresNameSize));
    core::store_u32(rec + 56, static_cast<std::uint32_t>(pos));
    core::store_u32(rec + 60, order[i]);
    pos += (row.payload.size() + kNresAlignment - 1) / kNresAlignment * kNresAlignment;
  }
  return out;
}

}  // namespace detail

core::Bytes write_nres_lossless(const NresArchive& archive) {
  const std::size_t count = archive.entries.size();
  const std::size_t total = std::size_t{archive.directory_offset} + count * kNresRecordSize;
  core::Bytes out(total, 0);
  detail::put_header(out, archive.version, static_cast<std::uint32_t>(count), static_cast<std::uint32_t>(total));
  for (std::size_t g = 0; g < archive.gaps.size(); ++g) {
    const core::ByteView gap = archive.gap_bytes(g);
    if (!gap.empty() && std::size_t{archive.gaps[g].offset} + gap.size() <= archive.directory_offset)
      std::memcpy(out.data() + archive.gaps[g].offset, gap.data(), gap.size());
  }
  std::uint8_t* dir = out.data() + archive.directory_offset;
  for (std::size_t i = 0; i < count; ++i) {
    const NresEntry& e = archive.entries[i];
    const core::ByteView p = archive.payload(i);
    if (!p.empty() && std::size_t{e.data_offset} + p.size() <= archive.directory_offset)
      std::memcpy(out.data() + e.data_offset, p.data(), p.size());
    std::uint8_t* rec = dir + i * kNresRecordSize;
    core::store_u32(rec, e.type_id);
    core::store_u32(rec + 4, e.attr1);
    core::store_u32(rec + 8, e.attr2);
    core::store_u32(rec + 12, e.size);
    core::store_u32(rec + 16, e.attr3);
    std::memcpy(rec + 20, e.name.raw.data(), std::min(e.name.raw.size(), kNresNameSize));
    core::store_u32(rec + 56, e.data_offset);
    core::store_u32(rec + 60, e.sort_index);
  }
  return out;
}

core::Bytes write_nres_canonical(const NresArchive& archive) {
  std::vector<detail::RowRef> rows(archive.entries.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const NresEntry& e = archive.entries[i];
    rows[i] = {e.type_id,         e.attr1, e.attr2, e.attr3, std::string_view(e.name.raw.data(), kNresNameSize),
               archive.payload(i)};
  }
  // An accepted archive is below 256 MiB, so the repack (at most 7 padding bytes per entry
  // more) always fits; the error path is unreachable for read archives.
  auto out = detail::encode_canonical(rows);
  return out ? std::move(*out) : core::Bytes{};
}

core::Result<core::Bytes> build_nres(std::span<const NresEntrySpec> entries) {
  std::vector<core::FixedString> names(entries.size());
  std::vector<detail::RowRef> rows(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    auto name = detail::raw_name_field(entries[i].name);
    if (!name) return fail(std::move(name.error()).within(fmt::format("entries[{}].name", i)));
    names[i] = std::move(*name);
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const NresEntrySpec& s = entries[i];
    rows[i] = {s.type_id, s.attr1, s.attr2, s.attr3, names[i].raw, s.payload};
  }
  return detail::encode_canonical(rows);
}

NresBuilder& NresBuilder::add(std::uint32_t type_id, std::string name, core::Bytes payload, std::uint32_t attr1,
                              std::uint32_t attr2, std::uint32_t attr3) {
  specs_.push_back(NresEntrySpec{type_id, attr1, attr2, attr3, std::move(name), std::move(payload)});
  return *this;
}

NresBuilder& NresBuilder::add(NresEntrySpec spec) {
  specs_.push_back(std::move(spec));
  return *this;
}

}  // namespace sortie::iron3d
