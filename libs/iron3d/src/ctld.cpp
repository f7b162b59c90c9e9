#include "sortie/iron3d/ctld.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "asset_util.hpp"

namespace sortie::iron3d {

std::optional<std::uint64_t> ctld_row_start(std::uint32_t s, std::uint32_t m) {
  // 156 + 16 * M < 2^37 and S < 2^32: the product fits 2^69 only in theory, so check.
  const std::uint64_t per_shape = 156ull + 16ull * m;
  const std::uint64_t s64 = s;
  if (s64 != 0 && per_shape > (~0ull - 128) / s64) return std::nullopt;
  const std::uint64_t a = 128 + s64 * per_shape;
  const std::uint64_t ss = s64 * s64;  // < 2^64
  if (ss > (~0ull) / 4) return std::nullopt;
  if (4 * ss > ~0ull - a) return std::nullopt;
  return a + 4 * ss;
}

CtldRow make_ctld_row(std::int32_t node_id, float a, float b, float blend, std::uint32_t flags) {
  CtldRow r;
  core::store_u32(r.raw.data(), static_cast<std::uint32_t>(node_id));
  core::store_u32(r.raw.data() + 0x04, std::bit_cast<std::uint32_t>(a));
  core::store_u32(r.raw.data() + 0x08, std::bit_cast<std::uint32_t>(b));
  core::store_u32(r.raw.data() + 0x0C, std::bit_cast<std::uint32_t>(blend));
  core::store_u32(r.raw.data() + 0x20, flags);
  return r;
}

core::Result<Ctld> read_ctld(core::ByteView data, const ReadOptions& options) {
  core::ByteReader r(data, options.file_name);
  r.set_code_prefix("ctld");
  if (data.size() < kCtldCountsSize)
    return core::fail(r.error_at(0, "ctld.size", "CTLD shorter than its five counts")
                          .in("counts")
                          .expect(">= 20 bytes", fmt::format("{} bytes", data.size())));
  Ctld c;
  for (auto& v : c.counts) {
    SORTIE_TRY(v, r.u32());
  }
  const auto start = ctld_row_start(c.counts[0], c.counts[1]);
  if (!start || *start > data.size())
    return core::fail(r.error_at(0, "ctld.row_start", "control-row table starts past the end of the file")
                          .in("counts[0..1]")
                          .expect(fmt::format("128 + S*(156 + 16*M) + 4*S*S <= {}", data.size()),
                                  start ? fmt::format("{} (S={}, M={})", *start, c.counts[0], c.counts[1])
                                        : fmt::format("overflow (S={}, M={})", c.counts[0], c.counts[1])));
  const std::uint64_t rows_bytes = static_cast<std::uint64_t>(c.counts[2]) * kCtldRowSize;
  if (rows_bytes > data.size() - *start)
    return core::fail(
        r.error_at(8, "ctld.rows", "control rows run past the end of the file")
            .in("counts[2]")
            .expect(fmt::format("<= {} rows of 36 bytes from 0x{:x}", (data.size() - *start) / kCtldRowSize, *start),
                    fmt::format("{}", c.counts[2])));
  SORTIE_TRY(const auto prefix, r.bytes(static_cast<std::size_t>(*start) - kCtldCountsSize));
  c.prefix.assign(prefix.begin(), prefix.end());
  c.rows.resize(c.counts[2]);
  for (auto& row : c.rows) {
    SORTIE_TRY(const auto b, r.bytes(kCtldRowSize));
    std::copy(b.begin(), b.end(), row.raw.begin());
  }
  SORTIE_TRY(const auto tail, r.bytes(r.remaining()));
  c.tail.assign(tail.begin(), tail.end());
  return c;
}

core::Bytes write_ctld(const Ctld& ctld) {
  core::ByteWriter w(kCtldCountsSize + ctld.prefix.size() + ctld.rows.size() * kCtldRowSize + ctld.tail.size());
  for (std::size_t i = 0; i < ctld.counts.size(); ++i)
    w.u32(i == 2 ? static_cast<std::uint32_t>(ctld.rows.size()) : ctld.counts[i]);
  w.bytes(core::ByteView(ctld.prefix));
  for (const auto& row : ctld.rows) w.bytes(core::ByteView(row.raw));
  w.bytes(core::ByteView(ctld.tail));
  return w.take();
}

Ctld build_ctld(std::uint32_t s, std::uint32_t m, std::vector<CtldRow> rows, std::uint32_t c3, std::uint32_t c4,
                core::Bytes tail) {
  Ctld c;
  c.counts = {s, m, static_cast<std::uint32_t>(rows.size()), c3, c4};
  c.prefix.assign(static_cast<std::size_t>(*ctld_row_start(s, m)) - kCtldCountsSize, 0);
  c.rows = std::move(rows);
  c.tail = std::move(tail);
  return c;
}

float ctld_normalize_blend(float blend, std::uint32_t flags) {
  if ((flags & kCtldFlagWrap) != 0) {
    if (blend > 1.0f)
      blend -= 1.0f;
    else if (blend < 0.0f)
      blend += 1.0f;
  } else {
    if (blend > 1.0f) blend = 1.0f;
    if (blend < 0.0f) blend = 0.0f;
  }
  if ((flags & kCtldFlagInvert) != 0) blend = 1.0f - blend;
  return blend;
}

const CtldNodeFrame* CtldPose::find(std::int32_t node_id) const {
  for (const auto& n : nodes)
    if (n.node_id == node_id) return &n;
  return nullptr;
}

CtldPose evaluate_ctld_pose(const Ctld& ctld) {
  CtldPose pose;
  std::map<std::int32_t, std::size_t> slot;  // node id -> index in pose.nodes
  for (std::size_t i = 0; i < ctld.rows.size(); ++i) {
    const auto& row = ctld.rows[i];
    if ((row.flags() & kCtldFlagSkip) != 0) {  // skipped before any float is read
      ++pose.skipped_rows;
      continue;
    }
    const float blend = ctld_normalize_blend(row.blend(), row.flags());
    const float frame = (1.0f - blend) * row.endpoint_a() + blend * row.endpoint_b();
    const CtldNodeFrame nf{row.node_id(), i, blend, frame};
    auto [it, inserted] = slot.emplace(row.node_id(), pose.nodes.size());
    if (inserted)
      pose.nodes.push_back(nf);
    else
      pose.nodes[it->second] = nf;  // the last included row wins
  }
  return pose;
}

std::vector<CtldInstancePose> bind_ctld_poses(std::span<const CtldInstance> instances) {
  std::vector<CtldInstancePose> out;
  out.reserve(instances.size());
  std::map<const Ctld*, CtldPose> evaluated;  // one evaluation per shared CTLD, one copy per instance
  for (const auto& inst : instances) {
    CtldInstancePose p{inst.instance_id, {}};
    if (inst.ctld) {
      auto it = evaluated.find(inst.ctld.get());
      if (it == evaluated.end()) it = evaluated.emplace(inst.ctld.get(), evaluate_ctld_pose(*inst.ctld)).first;
      p.pose = it->second;
    }
    out.push_back(std::move(p));
  }
  return out;
}

core::Json ctld_json(const Ctld& ctld) {
  core::Json j;
  j["format"] = "ctld";
  j["counts"] = ctld.counts;
  const std::uint64_t start = kCtldCountsSize + ctld.prefix.size();
  j["row_start"] = start;
  core::Json rows = core::Json::array();
  for (const auto& r : ctld.rows)
    rows.push_back({{"node_id", r.node_id()},
                    {"endpoint_a", r.endpoint_a()},
                    {"endpoint_b", r.endpoint_b()},
                    {"blend", r.blend()},
                    {"flags", r.flags()},
                    {"unknown_hex", core::to_hex(core::ByteView(r.raw).subspan(0x10, 0x10))}});
  j["rows"] = std::move(rows);
  const auto pose = evaluate_ctld_pose(ctld);
  core::Json nodes = core::Json::array();
  for (const auto& n : pose.nodes)
    nodes.push_back({{"node_id", n.node_id}, {"row", n.row}, {"blend", n.blend}, {"frame", n.frame}});
  j["pose"] = {{"nodes", std::move(nodes)}, {"skipped_rows", pose.skipped_rows}};
  j["prefix_bytes"] = ctld.prefix.size();
  j["tail_bytes"] = ctld.tail.size();
  return j;
}

namespace {

int detect(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".ctl") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Ctld> kCtldFormat{
    .name = "ctld",
    .description = "Iron3D CTLD control resource (*.ctl): counts, control rows, raw sections",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics*) { return read_ctld(d, o); },
    .json = &ctld_json,
    .write = [](const Ctld& c) -> core::Result<core::Bytes> { return write_ctld(c); },
};

}  // namespace

FormatInfo ctld_format_info() {
  return format_info<Ctld, kCtldFormat>();
}

}  // namespace sortie::iron3d
