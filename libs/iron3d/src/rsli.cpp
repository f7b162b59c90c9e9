// RsLi library archive: reader, lossless writer, lookup and entry decoding (spec §4).
#include "sortie/iron3d/rsli.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "sortie/core/text.hpp"
#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;

namespace {

constexpr std::size_t kRowFlags = 16;
constexpr std::size_t kRowCell = 18;
constexpr std::size_t kRowUnpacked = 20;
constexpr std::size_t kRowOffset = 24;
constexpr std::size_t kRowPacked = 28;

std::string row_field(std::size_t i, std::string_view field) {
  return fmt::format("entries[{}].{}", i, field);
}
std::uint64_t row_offset(std::size_t i, std::size_t field) {
  return kRsliHeaderSize + i * kRsliRowSize + field;
}

// Original indices in byte order of their names; stable, so equal names keep row order.
std::vector<std::int16_t> sorted_cells(const std::vector<RsliEntry>& entries) {
  std::vector<std::int16_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::int16_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::int16_t a, std::int16_t b) {
    return entries[static_cast<std::size_t>(a)].name.text() < entries[static_cast<std::size_t>(b)].name.text();
  });
  return order;
}

// Why the stored cells of a presorted table cannot be used, or empty when they can.
std::optional<Diagnostic> check_presorted(const std::vector<RsliEntry>& entries) {
  const std::size_t n = entries.size();
  std::vector<bool> seen(n, false);
  for (std::size_t p = 0; p < n; ++p) {
    const std::int16_t cell = entries[p].stored_cell;
    if (cell < 0 || static_cast<std::size_t>(cell) >= n)
      return Diagnostic::error("rsli.corrupt_table", "presorted table cell is not an entry index")
          .at(row_offset(p, kRowCell))
          .in(row_field(p, "sort_to_original"))
          .expect(fmt::format("0..{}", n == 0 ? 0 : n - 1), fmt::format("{}", cell));
    if (seen[static_cast<std::size_t>(cell)])
      return Diagnostic::error("rsli.corrupt_table", "presorted table names an entry twice")
          .at(row_offset(p, kRowCell))
          .in(row_field(p, "sort_to_original"))
          .expect("a permutation of the entry indices", fmt::format("{} again", cell));
    seen[static_cast<std::size_t>(cell)] = true;
  }
  for (std::size_t p = 1; p < n; ++p) {
    const auto& prev = entries[static_cast<std::size_t>(entries[p - 1].stored_cell)].name.text();
    const auto& cur = entries[static_cast<std::size_t>(entries[p].stored_cell)].name.text();
    if (cur < prev)
      return Diagnostic::error("rsli.corrupt_table", "presorted table is not in name order")
          .at(row_offset(p, kRowCell))
          .in(row_field(p, "sort_to_original"))
          .expect(fmt::format("a name >= '{}'", prev), fmt::format("'{}'", cur));
  }
  return std::nullopt;
}

}  // namespace

std::string_view rsli_method_name(std::uint16_t method_bits) {
  switch (method_bits & kRsliMethodMask) {
    case 0x000:
      return "stored";
    case 0x020:
      return "xor";
    case 0x040:
      return "lzss";
    case 0x060:
      return "xor_lzss";
    case 0x080:
      return "lzhuf";
    case 0x0A0:
      return "xor_lzhuf";
    case 0x100:
      return "deflate";
    default:
      return "unknown";
  }
}

bool rsli_method_known(std::uint16_t method_bits) {
  return rsli_method_name(method_bits) != "unknown";
}

std::optional<RsliMethod> parse_rsli_method(std::string_view name) {
  std::string key = core::ascii_lower(name);
  std::replace(key.begin(), key.end(), '-', '_');
  if (key == "xor_only") key = "xor";
  for (std::uint16_t bits = 0; bits <= 0x100; bits = static_cast<std::uint16_t>(bits + 0x20))
    if (rsli_method_known(bits) && rsli_method_name(bits) == key) return static_cast<RsliMethod>(bits);
  return std::nullopt;
}

bool rsli_method_uses_xor(RsliMethod method) {
  return method == RsliMethod::xor_only || method == RsliMethod::xor_lzss || method == RsliMethod::xor_lzhuf;
}

RsliReadOptions RsliReadOptions::from_profile(core::Profile profile, std::string file_name) {
  RsliReadOptions o;
  o.profile = profile;
  o.file_name = std::move(file_name);
  const bool compat = profile == core::Profile::compatible;
  o.allow_ao_trailer = compat;
  o.allow_deflate_eof_plus_one = compat;
  o.allow_invalid_presorted_fallback = compat;
  return o;
}

core::ByteView RsliArchive::packed_bytes(std::size_t index) const {
  const RsliEntry& e = entries.at(index);
  return core::ByteView(image).subspan(static_cast<std::size_t>(e.effective_offset), e.read_size);
}

core::Result<RsliArchive> read_rsli(core::ByteView data, const RsliReadOptions& options) {
  const std::string& file = options.file_name;
  auto located = [&](Diagnostic d) { return fail(std::move(d).of(file)); };
  const std::size_t size = data.size();
  if (size > options.limits.max_file)
    return located(Diagnostic::error("rsli.limit", "library is larger than the file limit")
                       .at(0)
                       .expect(fmt::format("<= {} bytes", options.limits.max_file), fmt::format("{} bytes", size)));
  if (size < kRsliHeaderSize)
    return located(Diagnostic::error("rsli.table_bounds", "file is shorter than the 32-byte RsLi header")
                       .at(0)
                       .in("header")
                       .expect("32 bytes", fmt::format("{} bytes", size)));
  if (data[0] != 'N' || data[1] != 'L')
    return located(Diagnostic::error("rsli.magic", "not an RsLi library (magic)")
                       .at(0)
                       .in("header.magic")
                       .expect("4e4c (\"NL\")", core::to_hex(data.first(2))));
  if (data[2] != 0)
    return located(Diagnostic::error("rsli.reserved", "reserved header byte is not zero")
                       .at(2)
                       .in("header.reserved")
                       .expect("0", fmt::format("{}", data[2])));
  if (data[3] != 1)
    return located(Diagnostic::error("rsli.version", "unsupported RsLi version")
                       .at(3)
                       .in("header.version")
                       .expect("1", fmt::format("{}", data[3])));
  RsliArchive a;
  a.file_name = file;
  std::copy_n(data.begin(), kRsliHeaderSize, a.header.raw.begin());
  const std::int16_t count = a.header.entry_count();
  if (count < 0)
    return located(Diagnostic::error("rsli.entry_count", "negative entry count")
                       .at(4)
                       .in("header.entry_count")
                       .expect(">= 0", fmt::format("{}", count)));
  const auto n = static_cast<std::size_t>(count);
  if (n > options.limits.max_entries)
    return located(Diagnostic::error("rsli.limit", "entry count exceeds the limit")
                       .at(4)
                       .in("header.entry_count")
                       .expect(fmt::format("<= {}", options.limits.max_entries), fmt::format("{}", n)));
  const std::size_t table_end = kRsliHeaderSize + n * kRsliRowSize;
  if (table_end > size)
    return located(Diagnostic::error("rsli.table_bounds", "entry table runs past the end of the file")
                       .at(kRsliHeaderSize)
                       .in("entries")
                       .expect(fmt::format("{} x 32 bytes = {} bytes", n, n * kRsliRowSize),
                               fmt::format("{} bytes left", size - kRsliHeaderSize)));
  core::Bytes table(data.begin() + kRsliHeaderSize, data.begin() + static_cast<std::ptrdiff_t>(table_end));
  xor_stream(a.header.table_key(), table);

  std::uint64_t overlay = 0;
  if (size >= kRsliTrailerSize && data[size - 6] == 'A' && data[size - 5] == 'O') {
    const std::uint32_t value = core::load_u32(data.data() + size - 4);
    if (value > size)
      return located(Diagnostic::error("rsli.overlay_bounds", "AO trailer overlay lies past the end of the file")
                         .at(size - 4)
                         .in("trailer.overlay")
                         .expect(fmt::format("<= {}", size), fmt::format("{}", value)));
    auto d = Diagnostic::error("rsli.ao_trailer", "library ends with an AO overlay trailer")
                 .at(size - 6)
                 .in("trailer")
                 .expect("no trailer (strict profile)", fmt::format("overlay {}", value));
    if (!options.allow_ao_trailer) return located(std::move(d));
    d.severity = core::Severity::warning;
    a.warnings.push_back(std::move(d).of(file));
    a.ao_overlay = value;
    overlay = value;
  }

  a.entries.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t* row = table.data() + i * kRsliRowSize;
    RsliEntry& e = a.entries[i];
    e.name.raw.assign(reinterpret_cast<const char*>(row), kRsliNameSize);
    std::copy_n(row + 12, 4, e.service.begin());
    e.flags = core::load_i16(row + kRowFlags);
    e.stored_cell = core::load_i16(row + kRowCell);
    e.sort_to_original = e.stored_cell;
    e.unpacked_size = core::load_u32(row + kRowUnpacked);
    e.data_offset_raw = core::load_u32(row + kRowOffset);
    e.packed_size = core::load_u32(row + kRowPacked);
    if (e.packed_size > options.limits.max_packed)
      return located(Diagnostic::error("rsli.limit", "packed size exceeds the limit")
                         .at(row_offset(i, kRowPacked))
                         .in(row_field(i, "packed_size"))
                         .expect(fmt::format("<= {}", options.limits.max_packed), fmt::format("{}", e.packed_size)));
    if (e.unpacked_size > options.limits.max_unpacked)
      return located(
          Diagnostic::error("rsli.limit", "unpacked size exceeds the limit")
              .at(row_offset(i, kRowUnpacked))
              .in(row_field(i, "unpacked_size"))
              .expect(fmt::format("<= {}", options.limits.max_unpacked), fmt::format("{}", e.unpacked_size)));
    e.effective_offset = std::uint64_t{e.data_offset_raw} + overlay;
    e.read_size = e.packed_size;
    const std::uint64_t end = e.effective_offset + e.packed_size;
    if (end > size) {
      const std::uint64_t overrun = end - size;
      // A Deflate payload one byte past EOF is the INTERF8.TEX quirk: accepted only for that
      // name in the compatible profile, reported under its own code everywhere else.
      const bool quirk_shape = overrun == 1 && e.method_bits() == static_cast<std::uint16_t>(RsliMethod::deflate);
      if (!quirk_shape)
        return located(Diagnostic::error("rsli.packed_past_eof", "entry payload runs past the end of the file")
                           .at(row_offset(i, kRowPacked))
                           .in(row_field(i, "packed_size"))
                           .expect(fmt::format("offset {} + size <= {}", e.effective_offset, size),
                                   fmt::format("{} (ends at {})", e.packed_size, end)));
      auto d = Diagnostic::error("rsli.deflate_eof_quirk",
                                 "Deflate payload declares one byte past the end of the file (accepted only for "
                                 "INTERF8.TEX in the compatible profile)")
                   .at(row_offset(i, kRowPacked))
                   .in(row_field(i, "packed_size"))
                   .expect(fmt::format("<= {}", size - e.effective_offset), fmt::format("{}", e.packed_size));
      if (!options.allow_deflate_eof_plus_one || core::ascii_upper(e.name.text()) != "INTERF8.TEX")
        return located(std::move(d));
      d.severity = core::Severity::warning;
      a.warnings.push_back(std::move(d).of(file));
      e.read_size = e.packed_size - 1;
      e.eof_quirk = true;
    }
  }

  bool rebuild = !a.header.presorted();
  if (a.header.presorted()) {
    if (auto bad = check_presorted(a.entries)) {
      if (!options.allow_invalid_presorted_fallback) return located(std::move(*bad));
      bad->severity = core::Severity::warning;
      bad->message += "; table rebuilt (this also changes the XOR keys)";
      a.warnings.push_back(std::move(*bad).of(file));
      rebuild = true;
    }
  }
  if (rebuild) {
    const auto cells = sorted_cells(a.entries);
    for (std::size_t p = 0; p < n; ++p) a.entries[p].sort_to_original = cells[p];
    a.table_rebuilt = true;
  }
  a.image.assign(data.begin(), data.end());
  return a;
}

core::Bytes write_rsli(const RsliArchive& a) {
  core::ByteWriter table(a.entries.size() * kRsliRowSize);
  for (const auto& e : a.entries) {
    table.fixed_string(e.name);
    table.bytes(core::ByteView(e.service));
    table.i16(e.flags);
    table.i16(e.stored_cell);
    table.u32(e.unpacked_size);
    table.u32(e.data_offset_raw);
    table.u32(e.packed_size);
  }
  core::Bytes rows = table.take();
  xor_stream(a.header.table_key(), rows);
  core::ByteWriter w(a.image.size());
  w.bytes(core::ByteView(a.header.raw));
  w.bytes(rows);
  if (a.image.size() > a.table_end()) w.bytes(core::ByteView(a.image).subspan(a.table_end()));
  return w.take();
}

std::optional<std::size_t> find_rsli_entry(const RsliArchive& a, std::string_view name) {
  const auto nul = name.find('\0');
  const std::string query = core::ascii_upper(name.substr(0, nul));
  const std::size_t n = a.entries.size();
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const std::int16_t cell = a.entries[mid].sort_to_original;
    if (cell < 0 || static_cast<std::size_t>(cell) >= n) break;
    const int cmp = std::string_view(query).compare(a.entries[static_cast<std::size_t>(cell)].name.text());
    if (cmp == 0) return static_cast<std::size_t>(cell);
    if (cmp < 0) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    if (a.entries[i].name.text() == query) return i;
  return std::nullopt;
}

core::Result<core::Bytes> decode_rsli_entry(const RsliArchive& a, std::size_t index, std::uint64_t max_unpacked) {
  if (index >= a.entries.size())
    return fail(Diagnostic::error("rsli.index", "no entry with this index")
                    .of(a.file_name)
                    .expect(fmt::format("< {}", a.entries.size()), fmt::format("{}", index)));
  const RsliEntry& e = a.entries[index];
  const std::string where = fmt::format("entries[{}]", index);
  if (e.unpacked_size > max_unpacked)
    return fail(Diagnostic::error("rsli.limit", "unpacked size exceeds the decode limit")
                    .of(a.file_name)
                    .at(row_offset(index, kRowUnpacked))
                    .in(where + ".unpacked_size")
                    .expect(fmt::format("<= {}", max_unpacked), fmt::format("{}", e.unpacked_size)));
  const core::ByteView packed = a.packed_bytes(index);
  const std::uint16_t method = e.method_bits();
  auto exact_size = [&]() -> core::Status {
    if (e.packed_size == e.unpacked_size) return {};
    return fail(Diagnostic::error("rsli.size_mismatch", "stored payload size differs from the unpacked size")
                    .of(a.file_name)
                    .at(row_offset(index, kRowPacked))
                    .in(where + ".packed_size")
                    .expect(fmt::format("{} (unpacked_size)", e.unpacked_size), fmt::format("{}", e.packed_size)));
  };
  auto codec = [&](core::Result<core::Bytes> r) -> core::Result<core::Bytes> {
    if (r) return r;
    Diagnostic d = std::move(r).error();
    d.offset = e.effective_offset + d.offset.value_or(0);
    d.file = a.file_name;
    return fail(std::move(d).within(where + ".payload"));
  };
  switch (static_cast<RsliMethod>(method)) {
    case RsliMethod::stored:
      SORTIE_CHECK(exact_size());
      return core::Bytes(packed.begin(), packed.end());
    case RsliMethod::xor_only:
      SORTIE_CHECK(exact_size());
      return xor_stream_copy(e.xor_key(), packed);
    case RsliMethod::lzss:
      return codec(lzss_decode(packed, e.unpacked_size));
    case RsliMethod::xor_lzss:
      return codec(lzss_decode(xor_stream_copy(e.xor_key(), packed), e.unpacked_size));
    case RsliMethod::lzhuf:
      return codec(lzhuf_decode(packed, e.unpacked_size));
    case RsliMethod::xor_lzhuf:
      return codec(lzhuf_decode(xor_stream_copy(e.xor_key(), packed), e.unpacked_size));
    case RsliMethod::deflate:
      return codec(inflate_raw(packed, e.unpacked_size));
  }
  return fail(Diagnostic::error("rsli.method_unsupported", "unknown storage method")
                  .of(a.file_name)
                  .at(row_offset(index, kRowFlags))
                  .in(where + ".flags")
                  .expect("flags & 0x1e0 in {0x000, 0x020, 0x040, 0x060, 0x080, 0x0a0, 0x100}",
                          fmt::format("0x{:03x}", method)));
}

core::Result<core::Bytes> pack_rsli_payload(core::ByteView data, RsliMethod method) {
  switch (method) {
    case RsliMethod::stored:
    case RsliMethod::xor_only:
      return core::Bytes(data.begin(), data.end());
    case RsliMethod::lzss:
    case RsliMethod::xor_lzss:
      return lzss_encode(data);
    case RsliMethod::lzhuf:
    case RsliMethod::xor_lzhuf:
      return lzhuf_encode(data);
    case RsliMethod::deflate:
      return deflate_raw(data);
  }
  return fail(Diagnostic::error("rsli.method_unsupported", "unknown storage method")
                  .expect("a known method", fmt::format("0x{:03x}", static_cast<unsigned>(method))));
}

}  // namespace sortie::iron3d
