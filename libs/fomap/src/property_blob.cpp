#include "sortie/fomap/property_blob.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

namespace sortie::fomap {

using core::Diagnostic;

std::size_t PropertyLayout::add_plain(std::string name, PodArea area, std::uint32_t size) {
  plain_.push_back(Plain{std::move(name), area, size, 0});
  return plain_.size() - 1;
}

std::size_t PropertyLayout::add_complex(std::string name) {
  complex_.push_back(std::move(name));
  return complex_.size() - 1;
}

void PropertyLayout::finish() {
  std::uint32_t base = 0;
  for (const PodArea area : {PodArea::public_sync, PodArea::owner_sync, PodArea::private_data}) {
    std::vector<bool> used;
    std::uint32_t area_size = 0;
    for (auto& p : plain_) {
      if (p.area != area || p.size == 0) continue;
      std::uint32_t off = 0;
      for (;; off += p.size) {
        bool free = true;
        for (std::uint32_t i = 0; i < p.size; ++i) {
          if (off + i < used.size() && used[off + i]) {
            free = false;
            break;
          }
        }
        if (free) break;
      }
      if (used.size() < off + p.size) used.resize(off + p.size, false);
      for (std::uint32_t i = 0; i < p.size; ++i) used[off + i] = true;
      p.offset = base + off;
      area_size = std::max(area_size, off + p.size);
    }
    area_size = (area_size + 7u) & ~7u;
    base += area_size;
  }
  pod_size_ = base;
}

namespace {

// The next POD run at or after `pos` (rules of pod_runs); false when none is left. Zero bytes
// are skipped 32, then 8 bytes at a time: the POD images are mostly zeros.
bool next_pod_run(core::ByteView pod, std::size_t& pos_io, PodRun& run) {
  const std::size_t n = pod.size();
  const std::uint8_t* d = pod.data();
  std::size_t pos = pos_io;
  const auto word_at = [d](std::size_t at) {
    std::uint64_t w = 0;
    std::memcpy(&w, d + at, sizeof w);
    return w;
  };
  while (pos + 32 <= n && (word_at(pos) | word_at(pos + 8) | word_at(pos + 16) | word_at(pos + 24)) == 0) pos += 32;
  for (; pos + 8 <= n; pos += 8) {
    const std::uint64_t w = word_at(pos);
    if (w == 0) continue;
    if constexpr (std::endian::native == std::endian::little) pos += static_cast<std::size_t>(std::countr_zero(w)) / 8;
    break;
  }
  while (pos < n && d[pos] == 0) ++pos;
  if (pos >= n) {
    pos_io = pos;
    return false;
  }
  const std::size_t start = pos;
  while (pos < n && d[pos] != 0) pos += 4;
  const std::size_t end = std::min(pos, n);
  if (pos < n) ++pos;  // the zero byte that closed the run
  pos_io = pos;
  run = {static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(end - start)};
  return true;
}

}  // namespace

std::vector<PodRun> pod_runs(core::ByteView pod) {
  std::vector<PodRun> runs;
  std::size_t pos = 0;
  for (PodRun run; next_pod_run(pod, pos, run);) runs.push_back(run);
  return runs;
}

core::Bytes write_property_blob(const PropertyData& data) {
  return write_property_blob(data.pod, std::vector<core::ByteView>(data.complex.begin(), data.complex.end()));
}

core::Bytes write_property_blob(core::ByteView pod, const std::vector<core::ByteView>& complex) {
  core::Bytes out;
  append_property_blob(pod, complex, out);
  return out;
}

void append_property_blob(core::ByteView pod, std::span<const core::ByteView> complex, core::Bytes& out) {
  // Hot path of the bake: one scan for the runs (kept in a per-thread buffer), the exact size,
  // then the output grown once and filled in place.
  thread_local std::vector<PodRun> runs;
  runs.clear();
  std::size_t total = 4 + 1 + 8 + 4;
  std::size_t pos = 0;
  for (PodRun run; next_pod_run(pod, pos, run);) {
    runs.push_back(run);
    total += 8 + run.length;
  }
  for (const auto& c : complex) total += 4 + c.size();
  const std::size_t at = out.size();
  out.resize(at + total);
  std::uint8_t* o = out.data() + at;
  auto put_u32 = [&o](std::uint32_t v) {
    core::store_u32(o, v);
    o += 4;
  };
  auto put_bytes = [&o](core::ByteView b) {
    if (!b.empty()) std::memcpy(o, b.data(), b.size());
    o += b.size();
  };
  put_u32(static_cast<std::uint32_t>(pod.size()));
  *o++ = 0;  // has_base
  for (const PodRun& run : runs) {
    put_u32(run.start);
    put_u32(run.length);
    put_bytes(pod.subspan(run.start, run.length));
  }
  put_u32(0);
  put_u32(0);
  put_u32(static_cast<std::uint32_t>(complex.size()));
  for (const auto& c : complex) {
    put_u32(static_cast<std::uint32_t>(c.size()));
    put_bytes(c);
  }
}

core::Result<PropertyData> read_property_blob(core::ByteView blob, std::uint32_t expected_pod_size,
                                              std::uint32_t expected_complex_count, std::string_view file) {
  core::ByteReader r(blob, std::string(file));
  r.set_code_prefix("fomap.blob");
  SORTIE_TRY(const std::uint32_t pod_size, r.u32());
  if (pod_size != expected_pod_size)
    return core::fail(r.error_at(0, "fomap.blob.pod_size", "POD size differs from the registrar's")
                          .expect(std::to_string(expected_pod_size), std::to_string(pod_size)));
  SORTIE_TRY(const std::uint8_t has_base, r.u8());
  if (has_base != 0)
    return core::fail(r.error_at(4, "fomap.blob.overlay", "overlay (has_base) blobs are not map records")
                          .expect("0", std::to_string(has_base)));
  PropertyData d;
  d.pod.assign(pod_size, 0);
  for (;;) {
    const std::size_t run_at = r.offset();
    SORTIE_TRY(const std::uint32_t start, r.u32());
    SORTIE_TRY(const std::uint32_t len, r.u32());
    if (start == 0 && len == 0) break;
    if (static_cast<std::uint64_t>(start) + len > pod_size)
      return core::fail(r.error_at(run_at, "fomap.blob.run", "POD run outside the POD image")
                            .expect(fmt::format("start+len <= {}", pod_size), fmt::format("{}+{}", start, len)));
    SORTIE_TRY(auto bytes, r.bytes(len));
    std::copy(bytes.begin(), bytes.end(), d.pod.begin() + start);
  }
  SORTIE_TRY(const std::uint32_t count, r.u32());
  if (count != expected_complex_count)
    return core::fail(r.error("fomap.blob.complex_count", "complex property count differs from the registrar's")
                          .expect(std::to_string(expected_complex_count), std::to_string(count)));
  SORTIE_CHECK(r.check_count(count, 4, "complex properties"));
  d.complex.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    SORTIE_TRY(const std::uint32_t size, r.u32());
    SORTIE_TRY(auto bytes, r.bytes(size));
    d.complex.emplace_back(bytes.begin(), bytes.end());
  }
  SORTIE_CHECK(r.require_end("property blob"));
  return d;
}

void ComplexWriter::align(std::uint32_t size) {
  std::uint32_t a = size & (~size + 1);  // lowest set bit
  if (a == 0) return;
  a = std::min<std::uint32_t>(a, 8);
  buf_.resize((buf_.size() + a - 1) / a * a, 0);
}

}  // namespace sortie::fomap
