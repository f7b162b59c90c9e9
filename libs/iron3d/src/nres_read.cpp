// NRes reader: validation in the exact order of spec §3.2, gap discovery, name lookup (§3.3).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "nres_internal.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;

namespace {

struct Ctx {
  const NresReadOptions& options;
  [[nodiscard]] Diagnostic error(std::string code, std::string message, std::uint64_t offset, std::string field) const {
    return Diagnostic::error(std::move(code), std::move(message)).at(offset).in(std::move(field)).of(options.file_name);
  }
};

std::string entry_field(std::size_t i, std::string_view field) {
  return fmt::format("entries[{}].{}", i, field);
}

std::uint64_t record_offset(std::uint32_t directory_offset, std::size_t i) {
  return std::uint64_t{directory_offset} + i * kNresRecordSize;
}

// Active payload range with the entry it belongs to.
struct Range {
  std::uint32_t start;
  std::uint32_t end;
  std::uint32_t index;
};

}  // namespace

bool nres_has_magic(core::ByteView bytes) {
  return bytes.size() >= 4 && std::memcmp(bytes.data(), "NRes", 4) == 0;
}

std::optional<std::vector<std::uint32_t>> nres_directory_types(core::ByteView bytes) {
  const NresLimits lim{};
  if (bytes.size() < kNresHeaderSize || bytes.size() > lim.max_input || !nres_has_magic(bytes)) return std::nullopt;
  const std::int32_t count = core::load_i32(bytes.data() + 8);
  if (core::load_u32(bytes.data() + 4) != kNresVersion || count < 0 ||
      static_cast<std::uint32_t>(count) > lim.max_entries || core::load_u32(bytes.data() + 12) != bytes.size())
    return std::nullopt;
  const std::uint64_t dir_bytes = std::uint64_t{static_cast<std::uint32_t>(count)} * kNresRecordSize;
  if (dir_bytes > bytes.size() || bytes.size() - dir_bytes < kNresHeaderSize) return std::nullopt;
  const std::uint8_t* dir = bytes.data() + (bytes.size() - dir_bytes);
  std::vector<std::uint32_t> types(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < types.size(); ++i) types[i] = core::load_u32(dir + i * kNresRecordSize);
  return types;
}

core::Result<NresArchive> read_nres(core::ByteView bytes, const NresReadOptions& options) {
  // Check the size limit before copying anything.
  if (bytes.size() > options.limits.max_input)
    return fail(
        Diagnostic::error("nres.limit", "archive larger than the input limit")
            .at(0)
            .of(options.file_name)
            .expect(fmt::format("<= {} bytes", options.limits.max_input), fmt::format("{} bytes", bytes.size())));
  return read_nres(core::SharedBytes::copy_of(bytes), options);
}

core::Result<NresArchive> read_nres(core::Bytes&& bytes, const NresReadOptions& options) {
  return read_nres(core::SharedBytes(std::move(bytes)), options);
}

namespace {

bool all_zero(const std::uint8_t* p, std::size_t n) {
  for (; n >= 8; p += 8, n -= 8)
    if (detail::load_le64(p) != 0) return false;
  for (; n > 0; ++p, --n)
    if (*p != 0) return false;
  return true;
}

// Step 10 (sort table): a permutation whose names are non-decreasing under the fold.
std::optional<Diagnostic> sort_table_problem(const Ctx& ctx, const NresArchive& a, const std::uint8_t* dir) {
  const std::size_t count = a.entries.size();
  std::vector<std::uint8_t> seen(count, 0);
  for (std::size_t p = 0; p < count; ++p) {
    const std::uint32_t idx = a.entries[p].sort_index;
    const std::uint64_t off = record_offset(a.directory_offset, p) + 60;
    if (idx >= count)
      return ctx
          .error("nres.sort_index_range", fmt::format("sort_index at position {} out of range", p), off,
                 entry_field(p, "sort_index"))
          .expect(fmt::format("< {}", count), std::to_string(idx));
    if (seen[idx])
      return ctx
          .error("nres.sort_index_duplicate", fmt::format("sort_index {} appears twice", idx), off,
                 entry_field(p, "sort_index"))
          .expect("a permutation of 0..entry_count-1", std::to_string(idx));
    seen[idx] = 1;
  }
  // The rows visited in table order are scattered over the directory: fetch ahead.
  constexpr std::size_t kAhead = 16;
  auto name_at = [&](std::size_t p) { return dir + std::size_t{a.entries[p].sort_index} * kNresRecordSize + 20; };
  for (std::size_t p = 1; p < count; ++p) {
    if (p + kAhead < count) __builtin_prefetch(name_at(p + kAhead));
    if (detail::compare_raw_names(name_at(p - 1), name_at(p)) > 0)
      return ctx
          .error("nres.sort_order", fmt::format("names out of order at sorted position {}", p),
                 record_offset(a.directory_offset, p) + 60, entry_field(p, "sort_index"))
          .expect("names non-decreasing under the ASCII upper-case fold",
                  fmt::format("'{}' after '{}'", a.entries[a.entries[p].sort_index].name.text(),
                              a.entries[a.entries[p - 1].sort_index].name.text()));
  }
  return std::nullopt;
}

// The 16-byte header after steps 1-5, and where the directory starts.
struct Header {
  std::uint32_t version;
  std::int32_t entry_count;
  std::uint32_t total_size;
  std::uint32_t directory_offset;
};

// Steps 1-5: size limit, magic, version, entry count (sign, then limit, before any
// allocation), total size, directory bounds.
core::Result<Header> read_header(const Ctx& ctx, core::ByteView bytes) {
  const NresLimits& lim = ctx.options.limits;
  if (bytes.size() > lim.max_input)
    return fail(ctx.error("nres.limit", "archive larger than the input limit", 0, "")
                    .expect(fmt::format("<= {} bytes", lim.max_input), fmt::format("{} bytes", bytes.size())));
  if (bytes.size() < kNresHeaderSize || !nres_has_magic(bytes))
    return fail(
        ctx.error("nres.magic", "not an NRes archive (bad magic or shorter than the 16-byte header)", 0, "magic")
            .expect("4e526573 (\"NRes\") and >= 16 bytes",
                    fmt::format("{} ({} bytes)", core::to_hex(bytes.first(std::min<std::size_t>(4, bytes.size()))),
                                bytes.size())));
  const std::uint8_t* base = bytes.data();
  const std::uint32_t version = core::load_u32(base + 4);
  const std::int32_t entry_count = core::load_i32(base + 8);
  const std::uint32_t total_size = core::load_u32(base + 12);
  if (version != kNresVersion)
    return fail(ctx.error("nres.version", "unsupported NRes version", 4, "version")
                    .expect("0x100", fmt::format("{:#x}", version)));
  if (entry_count < 0)
    return fail(ctx.error("nres.entry_count", "negative entry count", 8, "entry_count")
                    .expect(">= 0", std::to_string(entry_count)));
  if (static_cast<std::uint64_t>(entry_count) > lim.max_entries)
    return fail(ctx.error("nres.limit", "entry count above the limit", 8, "entry_count")
                    .expect(fmt::format("<= {}", lim.max_entries), std::to_string(entry_count)));
  if (total_size != bytes.size())
    return fail(ctx.error("nres.total_size", "header total_size differs from the actual length", 12, "total_size")
                    .expect(std::to_string(bytes.size()), std::to_string(total_size)));
  // entry_count <= limit, so the product fits in 64 bits.
  const std::uint64_t dir_bytes = static_cast<std::uint64_t>(entry_count) * kNresRecordSize;
  if (dir_bytes > total_size || total_size - dir_bytes < kNresHeaderSize)
    return fail(ctx.error("nres.directory_bounds", "directory does not fit between the header and the end of the file",
                          8, "entry_count")
                    .expect(fmt::format("16 + {} * 64 <= {}", entry_count, total_size),
                            fmt::format("directory of {} bytes", dir_bytes)));
  return Header{version, entry_count, total_size, static_cast<std::uint32_t>(total_size - dir_bytes)};
}

// What the directory pass notes for the checks after it.
struct DirectoryScan {
  std::optional<std::size_t> first_empty;       // step 7
  std::optional<std::size_t> first_over_limit;  // step 8
  std::uint64_t running_at_limit = 0;
  bool sorted = true;  // ranges already ascending by (start, end)
};

// One pass in directory order. Step 6 (name terminator, offset + size overflow, bounds) is
// reported as found; steps 7 (empty name) and 8 (payload limits, physical order) only note
// their first failure, reported after the pass, so the spec's order of checks holds.
core::Result<DirectoryScan> read_directory(const Ctx& ctx, const std::uint8_t* dir, NresArchive& a) {
  const NresLimits& lim = ctx.options.limits;
  const std::uint32_t directory_offset = a.directory_offset;
  DirectoryScan scan;
  std::uint64_t running = 0;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const std::uint8_t* rec = dir + i * kNresRecordSize;
    NresEntry& e = a.entries[i];
    e.type_id = core::load_u32(rec);
    e.attr1 = core::load_u32(rec + 4);
    e.attr2 = core::load_u32(rec + 8);
    e.size = core::load_u32(rec + 12);
    e.attr3 = core::load_u32(rec + 16);
    std::memcpy(e.name.raw.data(), rec + 20, kNresNameSize);
    e.data_offset = core::load_u32(rec + 56);
    e.sort_index = core::load_u32(rec + 60);
    const std::uint64_t roff = record_offset(directory_offset, i);
    const std::size_t name_len = detail::name_length(rec + 20);
    if (name_len == kNresNameSize)
      return fail(ctx.error("nres.name_terminator", "name field has no NUL within its 36 bytes", roff + 20,
                            entry_field(i, "name"))
                      .expect("a NUL byte within 36 bytes", core::to_hex(core::ByteView(rec + 20, kNresNameSize))));
    const std::uint32_t end = e.data_offset + e.size;
    if (end < e.data_offset)
      return fail(ctx.error("nres.entry_overflow", "data_offset + size overflows 32 bits", roff + 56,
                            entry_field(i, "data_offset"))
                      .expect("data_offset + size <= 0xffffffff",
                              fmt::format("data_offset {:#x} + size {:#x}", e.data_offset, e.size)));
    if (e.data_offset < kNresHeaderSize || end > directory_offset)
      return fail(
          ctx.error("nres.entry_bounds", "payload outside the data region", roff + 56, entry_field(i, "data_offset"))
              .expect(fmt::format("[0x10, {:#x})", directory_offset),
                      fmt::format("[{:#x}, {:#x})", e.data_offset, std::uint64_t{e.data_offset} + e.size)));
    if (name_len == 0 && !scan.first_empty) scan.first_empty = i;
    if (!scan.first_over_limit) {
      running += e.size;
      if (e.size > lim.max_payload || running > lim.max_total_payload) {
        scan.first_over_limit = i;
        scan.running_at_limit = running;
      }
    }
    if (i > 0) {
      const NresEntry& prev = a.entries[i - 1];
      if (prev.data_offset > e.data_offset || (prev.data_offset == e.data_offset && prev.size > e.size))
        scan.sorted = false;
    }
  }
  return scan;
}

// Steps 7 (empty names) and 8 (payload limits in physical order).
core::Status check_names_and_sizes(const Ctx& ctx, const NresArchive& a, const DirectoryScan& scan) {
  const NresLimits& lim = ctx.options.limits;
  if (scan.first_empty)
    return fail(ctx.error("nres.empty_name", "entry name is empty",
                          record_offset(a.directory_offset, *scan.first_empty) + 20,
                          entry_field(*scan.first_empty, "name"))
                    .expect("1..35 name bytes", "NUL at byte 0"));
  if (scan.first_over_limit) {
    const std::size_t i = *scan.first_over_limit;
    const std::uint32_t size = a.entries[i].size;
    return fail(
        ctx.error("nres.limit",
                  size > lim.max_payload ? "payload larger than the per-entry limit"
                                         : "sum of payload sizes above the limit",
                  record_offset(a.directory_offset, i) + 12, entry_field(i, "size"))
            .expect(size > lim.max_payload ? fmt::format("<= {}", lim.max_payload)
                                           : fmt::format("total <= {}", lim.max_total_payload),
                    size > lim.max_payload ? std::to_string(size) : fmt::format("total {}", scan.running_at_limit)));
  }
  return {};
}

// The active payload ranges sorted by (start, end). Archives written in directory order are
// already sorted; only others need the sorted copy.
class PhysicalOrder {
 public:
  PhysicalOrder(const NresArchive& a, bool sorted) : a_(a), sorted_(sorted) {
    if (sorted) return;
    const std::size_t count = a.entries.size();
    ranges_.reserve(count);
    for (std::size_t i = 0; i < count; ++i) ranges_.push_back(directory_range(i));
    std::sort(ranges_.begin(), ranges_.end(), [](const Range& x, const Range& y) {
      if (x.start != y.start) return x.start < y.start;
      if (x.end != y.end) return x.end < y.end;
      return x.index < y.index;
    });
  }
  [[nodiscard]] Range operator[](std::size_t k) const { return sorted_ ? directory_range(k) : ranges_[k]; }

 private:
  [[nodiscard]] Range directory_range(std::size_t i) const {
    const NresEntry& e = a_.entries[i];
    return {e.data_offset, e.data_offset + e.size, static_cast<std::uint32_t>(i)};
  }
  const NresArchive& a_;
  bool sorted_;
  std::vector<Range> ranges_;
};

// Step 9: no two active ranges overlap.
core::Status check_overlap(const Ctx& ctx, const NresArchive& a, const PhysicalOrder& order) {
  for (std::size_t k = 1; k < a.entries.size(); ++k) {
    const Range prev = order[k - 1];
    const Range cur = order[k];
    if (prev.end > cur.start)
      return fail(ctx.error("nres.overlap", fmt::format("payloads of entries {} and {} overlap", prev.index, cur.index),
                            record_offset(a.directory_offset, cur.index) + 56, entry_field(cur.index, "data_offset"))
                      .expect(fmt::format("start >= {:#x} (end of entries[{}])", prev.end, prev.index),
                              fmt::format("{:#x}", cur.start)));
  }
  return {};
}

// Step 10: a bad sort table fails a strict read; a compatible one keeps it with a warning and
// looks names up by a linear scan.
core::Status check_sort_table(const Ctx& ctx, NresArchive& a, const std::uint8_t* dir) {
  auto problem = sort_table_problem(ctx, a, dir);
  if (!problem) return {};
  if (ctx.options.profile == core::Profile::strict) return fail(std::move(*problem));
  problem->severity = core::Severity::warning;
  problem->message += " (lookup falls back to a linear scan)";
  a.warnings.push_back(std::move(*problem));
  a.lookup_order_valid = false;
  return {};
}

// Step 11: the preserved (unindexed) regions between and after the payloads, within the limit.
core::Status find_gaps(const Ctx& ctx, NresArchive& a, const PhysicalOrder& order) {
  std::uint64_t preserved = 0;
  auto add_gap = [&](std::uint32_t from, std::uint32_t to) {
    a.gaps.push_back({from, to - from});
    preserved += to - from;
  };
  a.gaps.reserve(a.entries.size() + 1);  // at most one before each payload and one after the last
  std::uint32_t cursor = kNresHeaderSize;
  for (std::size_t k = 0; k < a.entries.size(); ++k) {
    const Range rg = order[k];
    if (rg.start > cursor) add_gap(cursor, rg.start);
    cursor = std::max(cursor, rg.end);
  }
  if (cursor < a.directory_offset) add_gap(cursor, a.directory_offset);
  if (preserved > ctx.options.limits.max_preserved)
    return fail(
        ctx.error("nres.limit", "unindexed bytes above the preserved-bytes limit", a.gaps.front().offset, "gaps")
            .expect(fmt::format("<= {}", ctx.options.limits.max_preserved), std::to_string(preserved)));
  return {};
}

// Hash index for find(), in physical order, so the first of fold-equal names keeps the slot.
// 8-byte slots keep the table small (2 MiB for 100,000 entries).
std::vector<detail::NameSlot> build_name_index(std::size_t count, const std::uint8_t* dir) {
  std::vector<detail::NameSlot> slots;
  if (count == 0) return slots;
  std::size_t cap = 16;
  while (cap < count + count / 2) cap <<= 1;
  slots.resize(cap);
  for (std::size_t i = 0; i < count; ++i) {
    const detail::FoldedName f = detail::fold_raw(dir + i * kNresRecordSize + 20);
    const std::uint64_t h = detail::folded_hash(f);
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    for (std::size_t s = h & (cap - 1);; s = (s + 1) & (cap - 1)) {
      detail::NameSlot& slot = slots[s];
      if (slot.index_plus1 == 0) {
        slot = {static_cast<std::uint32_t>(i + 1), tag};
        break;
      }
      // An earlier fold-equal name answers.
      if (slot.tag == tag && detail::raw_name_equals(dir + std::size_t{slot.index_plus1 - 1} * kNresRecordSize + 20, f))
        break;
    }
  }
  return slots;
}

}  // namespace

core::Result<NresArchive> read_nres(core::SharedBytes input, const NresReadOptions& options) {
  const Ctx ctx{options};
  const core::ByteView bytes = input.view();
  SORTIE_TRY(const Header header, read_header(ctx, bytes));
  const std::uint8_t* dir = bytes.data() + header.directory_offset;
  NresArchive a;
  a.version = header.version;
  a.entry_count = header.entry_count;
  a.total_size = header.total_size;
  a.directory_offset = header.directory_offset;
  a.entries.resize(static_cast<std::size_t>(header.entry_count));
  SORTIE_TRY(const DirectoryScan scan, read_directory(ctx, dir, a));
  SORTIE_CHECK(check_names_and_sizes(ctx, a, scan));
  const PhysicalOrder order(a, scan.sorted);
  SORTIE_CHECK(check_overlap(ctx, a, order));
  SORTIE_CHECK(check_sort_table(ctx, a, dir));
  SORTIE_CHECK(find_gaps(ctx, a, order));
  a.slots_ = build_name_index(a.entries.size(), dir);
  a.bytes_ = std::move(input);
  return a;
}

std::string_view NresName::text() const {
  const void* nul = std::memchr(raw.data(), 0, raw.size());
  return {raw.data(), nul ? static_cast<std::size_t>(static_cast<const char*>(nul) - raw.data()) : raw.size()};
}

bool NresName::has_tail() const {
  const std::size_t len = text().size();
  return std::any_of(raw.begin() + static_cast<std::ptrdiff_t>(std::min(len + 1, raw.size())), raw.end(),
                     [](char c) { return c != 0; });
}

core::ByteView NresArchive::payload(std::size_t index) const {
  const NresEntry& e = entries.at(index);
  if (std::uint64_t{e.data_offset} + e.size > bytes_.size()) return {};
  return bytes_.view().subspan(e.data_offset, e.size);
}

bool NresArchive::gap_is_zero(std::size_t gap_index) const {
  const core::ByteView b = gap_bytes(gap_index);
  return all_zero(b.data(), b.size());
}

core::ByteView NresArchive::gap_bytes(std::size_t gap_index) const {
  const NresGap& g = gaps.at(gap_index);
  if (std::uint64_t{g.offset} + g.size > bytes_.size()) return {};
  return bytes_.view().subspan(g.offset, g.size);
}

std::optional<std::size_t> NresArchive::find_linear(std::string_view name) const {
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (nres_compare_names(entries[i].name.text(), name) == 0) return i;
  return std::nullopt;
}

std::optional<std::size_t> NresArchive::find(std::string_view name) const {
  if (slots_.empty()) return find_linear(name);
  const detail::FoldedName f = detail::fold_query(name);
  if (f.len == 0) return std::nullopt;
  const std::size_t mask = slots_.size() - 1;
  const std::uint8_t* dir = bytes_.data() + directory_offset;
  const std::uint64_t h = detail::folded_hash(f);
  const auto tag = static_cast<std::uint32_t>(h >> 32);
  for (std::size_t s = h & mask;; s = (s + 1) & mask) {
    const detail::NameSlot& slot = slots_[s];
    if (slot.index_plus1 == 0) return std::nullopt;
    const std::size_t index = slot.index_plus1 - 1;
    if (slot.tag == tag && detail::raw_name_equals(dir + index * kNresRecordSize + 20, f)) return index;
  }
}

std::optional<std::size_t> NresArchive::find_sorted(std::string_view name) const {
  if (!lookup_order_valid) return find_linear(name);
  if (name.empty() || name.size() > kNresMaxNameLength || name.find('\0') != std::string_view::npos)
    return std::nullopt;
  const std::uint8_t* dir = bytes_.data() + directory_offset;
  auto raw_at = [&](std::size_t p) { return dir + std::size_t{entries[p].sort_index} * kNresRecordSize + 20; };
  // lower_bound over sorted positions p: entries[sort_index[p]] is the p-th name in order.
  std::size_t lo = 0, n = entries.size();
  while (n > 0) {
    const std::size_t half = n / 2;
    if (detail::compare_raw_query(raw_at(lo + half), name) < 0) {
      lo += half + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  std::optional<std::size_t> best;
  for (std::size_t p = lo; p < entries.size() && detail::compare_raw_query(raw_at(p), name) == 0; ++p)
    if (!best || entries[p].sort_index < *best) best = entries[p].sort_index;
  return best;
}

}  // namespace sortie::iron3d
