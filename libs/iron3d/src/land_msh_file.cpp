// Land.msh as a file: NRes container, JSON model, FormatInfo row.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

#include "land_file.hpp"
#include "sortie/iron3d/land_msh.hpp"

namespace sortie::iron3d {

using core::Json;

core::Result<LandMsh> read_land_msh(core::ByteView file, const ReadOptions& options, core::Diagnostics* findings) {
  SORTIE_TRY(auto archive, detail::read_land_container(file, options, findings));
  const auto streams = detail::land_streams(archive);
  return decode_land_msh_streams(streams, options, findings);
}

core::Result<core::Bytes> write_land_msh(const LandMsh& msh) {
  SORTIE_TRY(auto streams, encode_land_msh_streams(msh));
  return detail::build_land_container(streams);
}

core::Result<core::Bytes> write_land_msh(const LandMsh& msh, const NresArchive& original) {
  SORTIE_TRY(auto streams, encode_land_msh_streams(msh));
  return detail::rebuild_land_container(streams, original, "land_msh");
}

namespace {

std::string hex16(std::uint32_t v) {
  return fmt::format("{:#06x}", v);
}

Json bounds_json(std::span<const core::Vec3> pts) {
  Json j;
  j["count"] = pts.size();
  if (pts.empty()) return j;
  core::Vec3 lo = pts[0], hi = pts[0];
  for (const auto& p : pts) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  j["min"] = detail::vec3_json(lo);
  j["max"] = detail::vec3_json(hi);
  return j;
}

Json faces_json(const LandMsh& m) {
  Json j;
  j["count"] = m.faces.size();
  std::size_t boundary = 0;
  std::map<std::uint16_t, std::size_t> tags;
  std::uint32_t unknown_bits = 0;
  std::map<std::string, std::size_t> compact_bits, class_bits;
  for (const auto& f : m.faces) {
    for (auto n : f.neighbours) boundary += n == kNoNeighbour;
    ++tags[f.material_tag];
    const auto masks = split_surface_mask(f.surface_mask);
    unknown_bits |= masks.unknown_full;
    for (unsigned b = 0; b < 16; ++b)
      if (masks.compact & (1u << b)) ++compact_bits[hex16(1u << b)];
    for (unsigned b = 0; b < 6; ++b)
      if (masks.material_class & (1u << b)) ++class_bits[fmt::format("{:#04x}", 1u << b)];
  }
  j["boundary_edges"] = boundary;
  Json t = Json::object();
  for (auto [tag, n] : tags) t[hex16(tag)] = n;
  j["material_tags"] = t;
  j["compact_mask_bits"] = compact_bits;
  j["material_class_bits"] = class_bits;
  j["unknown_full_mask_bits"] = fmt::format("{:#010x}", unknown_bits);
  return j;
}

std::size_t stride_for(std::uint32_t type) {
  switch (type) {
    case 1:
      return 38;
    case 3:
      return 12;
    case 21:
      return 28;
    case 2:
      return 68;
    case 4:
    case 5:
    case 11:
    case 14:
    case 18:
      return 4;
    default:
      return 0;
  }
}

}  // namespace

Json land_msh_to_json(const LandMsh& m) {
  Json j;
  j["format"] = "land_msh";
  Json streams = Json::array();
  std::size_t extra = 0;
  for (std::size_t i = 0; i < m.entries.size(); ++i) {
    const auto& e = m.entries[i];
    Json s;
    s["index"] = i;
    s["type_id"] = e.type_id;
    s["name"] = core::fixed_string_json(e.name);
    s["attr1"] = e.attr1;
    s["attr2"] = e.attr2;
    s["attr3"] = e.attr3;
    std::size_t size = 0;
    switch (e.type_id) {
      case 1:
        size = m.nodes_raw.size();
        break;
      case 2:
        size = kLandMshSlotHeaderSize + 68 * m.slots.size();
        break;
      case 3:
        size = 12 * m.positions.size();
        break;
      case 4:
        size = 4 * m.normals.size();
        break;
      case 5:
        size = 4 * m.uvs.size();
        break;
      case 11:
        size = 4 * m.material_pairs.size();
        break;
      case 14:
        size = 4 * m.aux_words.size();
        break;
      case 18:
        size = 4 * m.microtexture.size();
        break;
      case 21:
        size = 28 * m.faces.size();
        break;
      default:
        size = extra < m.extra_streams.size() ? m.extra_streams[extra++].payload.size() : 0;
        break;
    }
    const std::size_t stride = stride_for(e.type_id);
    s["size"] = size;
    if (stride) {
      s["stride"] = stride;
      s["count"] = e.type_id == 2 ? (size - kLandMshSlotHeaderSize) / 68 : size / stride;
    }
    streams.push_back(std::move(s));
  }
  j["streams"] = std::move(streams);
  j["nodes"] = {{"count", m.nodes_raw.size() / 38}, {"bytes", m.nodes_raw.size()}};
  j["positions"] = bounds_json(m.positions);
  j["normals"] = {{"count", m.normals.size()}};
  j["uvs"] = {{"count", m.uvs.size()}};
  {
    Json s;
    s["count"] = m.slots.size();
    s["header_hex"] = core::to_hex(m.slot_header);
    std::size_t out_of_range = 0;
    for (std::size_t i = 0; i < m.slots.size(); ++i)
      out_of_range += std::size_t{m.slots[i].pair_table_index} + m.slots[i].pair_count > m.material_pairs.size();
    s["pair_ranges_out_of_bounds"] = out_of_range;
    j["slots"] = std::move(s);
  }
  {
    Json p;
    p["count"] = m.material_pairs.size();
    std::size_t boundaries = 0;
    std::uint16_t lo = std::numeric_limits<std::uint16_t>::max(), hi = 0;
    for (const auto& pair : m.material_pairs) {
      boundaries += (pair.flags & kPairBatchBoundary) != 0;
      lo = std::min(lo, pair.material_lookup);
      hi = std::max(hi, pair.material_lookup);
    }
    p["batch_boundaries"] = boundaries;
    if (!m.material_pairs.empty()) {
      p["lookup_min"] = lo;
      p["lookup_max"] = hi;
    }
    j["material_pairs"] = std::move(p);
  }
  j["aux_words"] = {{"count", m.aux_words.size()}};
  j["microtexture"] = {{"count", m.microtexture.size()}};
  j["faces"] = faces_json(m);
  Json ex = Json::array();
  for (const auto& e : m.extra_streams)
    ex.push_back(
        {{"entry_index", e.entry_index}, {"size", e.payload.size()}, {"type_id", m.entries[e.entry_index].type_id}});
  j["extra_streams"] = std::move(ex);
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view file_name) {
  if (!nres_has_magic(data)) return kDetectNone;
  if (auto types = nres_directory_types(data); types && types->size() == kLandMshStreamOrder.size()) {
    std::sort(types->begin(), types->end());
    std::array<std::uint32_t, 9> want = kLandMshStreamOrder;
    std::sort(want.begin(), want.end());
    if (std::equal(types->begin(), types->end(), want.begin(), want.end())) return kDetectContent;
  }
  return detail::file_name_is(file_name, "Land.msh") ? kDetectName : kDetectNone;
}

using LandMshFile = detail::LandFile<LandMsh>;

constexpr FormatAdapter<LandMshFile> kLandMshFormat{
    .name = "land_msh",
    .description = "Iron3D terrain mesh (Land.msh: NRes of typed streams)",
    .detect = &detect,
    .read = &detail::read_land_file<LandMsh, &decode_land_msh_streams>,
    .json = [](const LandMshFile& f) { return land_msh_to_json(f.decoded); },
    .write = [](const LandMshFile& f) { return write_land_msh(f.decoded, f.archive); },
    .inspect_warnings = InspectWarnings::findings,
};

}  // namespace

FormatInfo land_msh_format_info() {
  return format_info<LandMshFile, kLandMshFormat>();
}

}  // namespace sortie::iron3d
