// MSH whole-file read/write over the NRes layer, views, builder and format-table row.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "asset_util.hpp"
#include "sortie/iron3d/msh.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {
NresReadOptions nres_options(const ReadOptions& o) {
  NresReadOptions r;
  r.profile = o.profile;
  r.file_name = o.file_name;
  return r;
}
}  // namespace

core::Result<MshFile> read_msh(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  SORTIE_TRY(auto archive, read_nres(data, nres_options(options)));
  if (warnings) warnings->insert(warnings->end(), archive.warnings.begin(), archive.warnings.end());
  std::vector<MshStream> streams;
  streams.reserve(archive.size());
  for (std::size_t i = 0; i < archive.size(); ++i) {
    const auto& e = archive.entries[i];
    const auto p = archive.payload(i);
    streams.push_back({e.type_id, e.attr1, e.attr2, e.attr3, e.name, core::Bytes(p.begin(), p.end())});
  }
  SORTIE_TRY(auto model, read_msh_streams(std::move(streams), options, warnings));
  return MshFile{std::move(archive), std::move(model)};
}

core::Result<core::Bytes> write_msh(const MshFile& file) {
  const auto streams = encode_msh_streams(file.model);
  const auto& a = file.archive;
  if (streams.size() != a.size()) return write_msh_canonical(file.model);
  bool same = true;
  for (std::size_t i = 0; i < streams.size() && same; ++i) {
    const auto& e = a.entries[i];
    const auto p = a.payload(i);
    const auto& s = streams[i];
    same = s.type_id == e.type_id && s.attr1 == e.attr1 && s.attr2 == e.attr2 && s.attr3 == e.attr3 &&
           s.name == e.name && std::equal(p.begin(), p.end(), s.payload.begin(), s.payload.end());
  }
  if (same) return write_nres_lossless(a);
  NresEditor ed(a);
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const auto& e = a.entries[i];
    const auto p = a.payload(i);
    const auto& s = streams[i];
    if (!std::equal(p.begin(), p.end(), s.payload.begin(), s.payload.end())) SORTIE_CHECK(ed.replace(i, s.payload));
    if (s.type_id != e.type_id || s.attr1 != e.attr1 || s.attr2 != e.attr2 || s.attr3 != e.attr3)
      SORTIE_CHECK(ed.set_attributes(i, s.type_id, s.attr1, s.attr2, s.attr3));
    if (!(s.name == e.name)) SORTIE_CHECK(ed.rename(i, s.name.text()));
  }
  return ed.encode_lossless_layout();
}

core::Result<core::Bytes> write_msh_canonical(const MshModel& model) {
  std::vector<NresEntrySpec> specs;
  for (auto& s : encode_msh_streams(model))
    specs.push_back({s.type_id, s.attr1, s.attr2, s.attr3, s.name.raw, std::move(s.payload)});
  return build_nres(specs);
}

std::optional<std::size_t> msh_slot_for(const MshModel& model, std::size_t node, std::size_t lod, std::size_t group) {
  if (node >= model.nodes.size() || lod >= 3 || group >= 5) return std::nullopt;
  const std::uint16_t v = model.nodes[node].slots[lod * 5 + group];
  if (v == kMshNone || v >= model.slots.size()) return std::nullopt;
  return v;
}

std::vector<std::uint16_t> msh_material_rows(const MshModel& model) {
  std::vector<std::uint16_t> rows;
  for (const auto& b : model.batches) rows.push_back(b.material_index);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

namespace {

MshStream make_stream(std::uint32_t type, std::uint32_t attr1, std::uint32_t attr3) {
  MshStream s;
  s.type_id = type;
  s.attr1 = attr1;
  s.attr3 = attr3;
  s.name = core::FixedString::make(fmt::format("Res{}", type), kNresNameSize);
  return s;
}

Diagnostic bad_input(std::string msg, std::string field, std::string exp, std::string found) {
  return Diagnostic::error("builder.msh", std::move(msg)).in(std::move(field)).expect(std::move(exp), std::move(found));
}

std::int8_t snorm8(float v) {
  return static_cast<std::int8_t>(std::clamp(std::lround(v * 127.0f), -128L, 127L));
}

// The stored normal (i8 x 3) whose normalised direction is closest to the unit vector `n`: the
// rounded n * 127 and its 26 neighbours. A normal read from an MSH and normalised comes back as
// the bytes it was read from.
std::array<std::int8_t, 4> quantize_normal(core::Vec3 n) {
  const std::array<long, 3> base{std::lround(n.x * 127.0f), std::lround(n.y * 127.0f), std::lround(n.z * 127.0f)};
  std::array<std::int8_t, 4> best{snorm8(n.x), snorm8(n.y), snorm8(n.z), 0};
  double best_error = 1e30;
  for (long dx = -1; dx <= 1; ++dx)
    for (long dy = -1; dy <= 1; ++dy)
      for (long dz = -1; dz <= 1; ++dz) {
        const std::array<long, 3> c{base[0] + dx, base[1] + dy, base[2] + dz};
        if (std::any_of(c.begin(), c.end(), [](long v) { return v < -127 || v > 127; })) continue;
        const double len = std::sqrt(static_cast<double>(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
        if (len == 0) continue;
        const double ex = static_cast<double>(c[0]) / len - static_cast<double>(n.x),
                     ey = static_cast<double>(c[1]) / len - static_cast<double>(n.y),
                     ez = static_cast<double>(c[2]) / len - static_cast<double>(n.z);
        const double error = ex * ex + ey * ey + ez * ez;
        if (error < best_error)
          best_error = error,
          best = {static_cast<std::int8_t>(c[0]), static_cast<std::int8_t>(c[1]), static_cast<std::int8_t>(c[2]), 0};
      }
  return best;
}

}  // namespace

core::Result<MshModel> build_msh_model(const MshBuildInput& in) {
  if (in.positions.size() > 65536)
    return core::fail(bad_input("too many positions", "positions", "<= 65536", fmt::format("{}", in.positions.size())));
  if (in.indices.size() % 3 != 0)
    return core::fail(
        bad_input("index count is not a multiple of 3", "indices", "3n", fmt::format("{}", in.indices.size())));
  if (!in.normals.empty() && in.normals.size() != in.positions.size())
    return core::fail(bad_input("normal count differs from position count", "normals",
                                fmt::format("{}", in.positions.size()), fmt::format("{}", in.normals.size())));
  if (!in.uvs.empty() && in.uvs.size() != in.positions.size())
    return core::fail(bad_input("uv count differs from position count", "uvs", fmt::format("{}", in.positions.size()),
                                fmt::format("{}", in.uvs.size())));
  for (std::size_t i = 0; i < in.indices.size(); ++i)
    if (in.indices[i] >= in.positions.size())
      return core::fail(bad_input("index past the positions", fmt::format("indices[{}]", i),
                                  fmt::format("< {}", in.positions.size()), fmt::format("{}", in.indices[i])));
  if (in.node_name.size() > 255)
    return core::fail(
        bad_input("node name too long", "node_name", "<= 255 bytes", fmt::format("{}", in.node_name.size())));
  std::vector<MshBuildBatch> batches = in.batches;
  if (batches.empty() && !in.indices.empty())
    batches.push_back({0, 0, static_cast<std::uint16_t>(std::min<std::size_t>(in.indices.size(), 65535))});
  MshModel m;
  m.node_stride = 38;
  m.node_count = 1;
  MshNode node;
  node.slots.fill(kMshNone);
  node.slots[0] = 0;
  m.nodes.push_back(node);
  m.positions = in.positions;
  m.indices = in.indices;
  std::uint32_t tris = 0;
  for (std::size_t i = 0; i < batches.size(); ++i) {
    const auto& b = batches[i];
    if (b.index_count % 3 != 0 || static_cast<std::uint64_t>(b.index_start) + b.index_count > in.indices.size())
      return core::fail(bad_input("batch range is not whole triangles inside the indices",
                                  fmt::format("batches[{}]", i), fmt::format("3n indices within {}", in.indices.size()),
                                  fmt::format("{}+{}", b.index_start, b.index_count)));
    MshBatch mb;
    mb.material_index = b.material_index;
    mb.index_start = b.index_start;
    mb.index_count = b.index_count;
    m.batches.push_back(mb);
    tris += b.index_count / 3u;
  }
  if (tris > 65535 || batches.size() > 65535)
    return core::fail(
        bad_input("too many triangles or batches for one slot", "batches", "<= 65535", fmt::format("{}", tris)));
  // Bounds.
  MshSlot slot;
  slot.tri_count = static_cast<std::uint16_t>(tris);
  slot.batch_count = static_cast<std::uint16_t>(batches.size());
  if (!in.positions.empty()) {
    slot.aabb_min = slot.aabb_max = in.positions[0];
    for (const auto& p : in.positions) {
      slot.aabb_min = {std::min(slot.aabb_min.x, p.x), std::min(slot.aabb_min.y, p.y), std::min(slot.aabb_min.z, p.z)};
      slot.aabb_max = {std::max(slot.aabb_max.x, p.x), std::max(slot.aabb_max.y, p.y), std::max(slot.aabb_max.z, p.z)};
    }
  }
  const core::Vec3 c{(slot.aabb_min.x + slot.aabb_max.x) / 2, (slot.aabb_min.y + slot.aabb_max.y) / 2,
                     (slot.aabb_min.z + slot.aabb_max.z) / 2};
  float r = 0;
  for (const auto& p : in.positions)
    r = std::max(r, std::sqrt((p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y) + (p.z - c.z) * (p.z - c.z)));
  slot.sphere_center = c;
  slot.sphere_radius = r;
  m.slots.push_back(slot);
  {  // header: 8 hull corners, sphere, segment A/B + radius
    core::ByteWriter w(kMshBoundsHeaderSize);
    for (int k = 0; k < 8; ++k) {
      w.f32((k & 1) ? slot.aabb_max.x : slot.aabb_min.x);
      w.f32((k & 2) ? slot.aabb_max.y : slot.aabb_min.y);
      w.f32((k & 4) ? slot.aabb_max.z : slot.aabb_min.z);
    }
    w.f32(c.x), w.f32(c.y), w.f32(c.z), w.f32(r);
    w.f32(c.x), w.f32(c.y), w.f32(slot.aabb_min.z), w.f32(c.x), w.f32(c.y), w.f32(slot.aabb_max.z), w.f32(r);
    std::copy(w.buffer().begin(), w.buffer().end(), m.bounds_header.begin());
  }
  // Face normals -> triangle descriptors and accumulated vertex normals.
  std::vector<core::Vec3> acc(in.positions.size());
  std::vector<MshTriDesc> descs;
  for (const auto& b : m.batches)
    for (std::uint32_t t = 0; t < b.index_count / 3u; ++t) {
      const auto& a = in.positions[in.indices[b.index_start + 3 * t]];
      const auto& p1 = in.positions[in.indices[b.index_start + 3 * t + 1]];
      const auto& p2 = in.positions[in.indices[b.index_start + 3 * t + 2]];
      const core::Vec3 u{p1.x - a.x, p1.y - a.y, p1.z - a.z}, v{p2.x - a.x, p2.y - a.y, p2.z - a.z};
      core::Vec3 n{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
      const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
      if (len > 0) n = {n.x / len, n.y / len, n.z / len};
      MshTriDesc d;
      d.normal = {static_cast<std::int16_t>(std::lround(n.x * 32767.0f)),
                  static_cast<std::int16_t>(std::lround(n.y * 32767.0f)),
                  static_cast<std::int16_t>(std::lround(n.z * 32767.0f))};
      descs.push_back(d);
      for (int k = 0; k < 3; ++k) {
        auto& av = acc[in.indices[b.index_start + 3 * t + static_cast<std::uint32_t>(k)]];
        av = {av.x + n.x, av.y + n.y, av.z + n.z};
      }
    }
  std::vector<std::array<std::int8_t, 4>> normals;
  if (in.normals.size() == in.positions.size() && !in.positions.empty()) {
    for (const auto& n : in.normals) normals.push_back(quantize_normal(n));
    acc.clear();
  }
  for (auto n : acc) {
    const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    if (len > 0) n = {n.x / len, n.y / len, n.z / len};
    normals.push_back({snorm8(n.x), snorm8(n.y), snorm8(n.z), 0});
  }
  m.normals = std::move(normals);
  m.tri_descs = std::move(descs);
  if (!in.uvs.empty()) {
    std::vector<std::array<std::int16_t, 2>> uv;
    for (const auto& t : in.uvs)
      uv.push_back({static_cast<std::int16_t>(std::clamp(std::lround(t[0] * 1024.0f), -32768L, 32767L)),
                    static_cast<std::int16_t>(std::clamp(std::lround(t[1] * 1024.0f), -32768L, 32767L))});
    m.uv0 = std::move(uv);
  }
  const auto n_pos = static_cast<std::uint32_t>(in.positions.size());
  m.streams.push_back(make_stream(1, 1, 38));
  m.streams.push_back(make_stream(2, 1, 68));
  m.streams.push_back(make_stream(3, n_pos, 12));
  m.streams.push_back(make_stream(4, n_pos, 4));
  if (m.uv0) m.streams.push_back(make_stream(5, n_pos, 4));
  m.streams.push_back(make_stream(13, static_cast<std::uint32_t>(m.batches.size()), 20));
  m.streams.push_back(make_stream(6, static_cast<std::uint32_t>(m.indices.size()), 2));
  m.streams.push_back(make_stream(7, tris, 16));
  auto names = make_stream(10, 1, 0);
  {
    core::ByteWriter w;
    w.u32(static_cast<std::uint32_t>(in.node_name.size()));
    if (!in.node_name.empty()) {
      w.bytes(in.node_name);
      w.u8(0);
    }
    names.payload = w.take();
  }
  m.streams.push_back(std::move(names));
  // Fill the typed streams, then run the strict reader over the result.
  return read_msh_streams(encode_msh_streams(m));
}

MshBuildInput msh_box_input(float hx, float hy, float hz, std::uint16_t material_rows) {
  MshBuildInput in;
  for (int k = 0; k < 8; ++k) in.positions.push_back({(k & 1) ? hx : -hx, (k & 2) ? hy : -hy, (k & 4) ? hz : -hz});
  for (const auto& p : in.positions) in.uvs.push_back({p.x > 0 ? 1.0f : 0.0f, p.y > 0 ? 1.0f : 0.0f});
  // Faces as quads (counter-clockwise seen from outside), two triangles each.
  static constexpr std::uint16_t kQuads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                                 {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : kQuads) {
    for (auto v : {q[0], q[1], q[2], q[0], q[2], q[3]}) in.indices.push_back(v);
  }
  if (material_rows > 1)
    for (std::uint16_t f = 0; f < 6; ++f)
      in.batches.push_back({static_cast<std::uint16_t>(f % material_rows), static_cast<std::uint32_t>(f * 6u), 6});
  return in;
}

core::Json msh_json(const MshModel& m) {
  core::Json j;
  j["format"] = "msh";
  core::Json streams = core::Json::array();
  for (const auto& s : m.streams)
    streams.push_back({{"type_id", s.type_id},
                       {"attr1", s.attr1},
                       {"attr2", s.attr2},
                       {"attr3", s.attr3},
                       {"name", core::fixed_string_json(s.name)},
                       {"size", s.payload.size()}});
  j["streams"] = std::move(streams);
  j["node_stride"] = m.node_stride;
  j["node_count"] = m.node_count;
  core::Json nodes = core::Json::array();
  for (const auto& n : m.nodes)
    nodes.push_back({{"flags", n.flags},
                     {"parent", n.parent},
                     {"anim_map_start", n.anim_map_start},
                     {"fallback_key", n.fallback_key},
                     {"slots", n.slots}});
  j["nodes"] = std::move(nodes);
  core::Json slots = core::Json::array();
  for (const auto& s : m.slots)
    slots.push_back({{"tri_start", s.tri_start},
                     {"tri_count", s.tri_count},
                     {"batch_start", s.batch_start},
                     {"batch_count", s.batch_count},
                     {"aabb_min", {s.aabb_min.x, s.aabb_min.y, s.aabb_min.z}},
                     {"aabb_max", {s.aabb_max.x, s.aabb_max.y, s.aabb_max.z}},
                     {"sphere", {s.sphere_center.x, s.sphere_center.y, s.sphere_center.z, s.sphere_radius}}});
  j["slots"] = std::move(slots);
  core::Json batches = core::Json::array();
  for (const auto& b : m.batches)
    batches.push_back({{"material_index", b.material_index},
                       {"index_start", b.index_start},
                       {"index_count", b.index_count},
                       {"base_vertex", b.base_vertex},
                       {"flags", b.flags}});
  j["batches"] = std::move(batches);
  j["position_count"] = m.positions.size();
  j["index_count"] = m.indices.size();
  j["material_rows"] = msh_material_rows(m);
  if (m.anim_keys) j["anim_key_count"] = m.anim_keys->size();
  if (m.frame_map) j["frame_count"] = m.frame_count;
  if (m.node_names) {
    core::Json names = core::Json::array();
    for (const auto& n : *m.node_names) names.push_back(core::legacy_text_json(n));
    j["node_names"] = std::move(names);
  }
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view file_name) {
  if (const auto types = nres_directory_types(data)) {
    auto has = [&](std::uint32_t t) { return std::find(types->begin(), types->end(), t) != types->end(); };
    if (has(1) && has(2) && has(13) && !has(21)) return kDetectContent;  // Land.msh has 1 and 2, but 21 and no 13
  }
  return detail::has_extension(file_name, ".msh") && !detail::has_extension(file_name, "land.msh") ? kDetectName
                                                                                                   : kDetectNone;
}

constexpr FormatAdapter<MshFile> kMshFormat{
    .name = "msh",
    .description = "Iron3D MSH model (NRes of streams 1..20: nodes, slots, vertices, batches)",
    .detect = &detect,
    .read = &read_msh,
    .json = [](const MshFile& f) { return msh_json(f.model); },
    .write = &write_msh,
    .inspect_warnings = InspectWarnings::always,
};

}  // namespace

FormatInfo msh_format_info() {
  return format_info<MshFile, kMshFormat>();
}

}  // namespace sortie::iron3d
