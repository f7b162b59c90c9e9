// Land.map as a file: NRes container, JSON model, FormatInfo row.
#include <fmt/format.h>

#include <algorithm>

#include "land_file.hpp"
#include "sortie/iron3d/land_map.hpp"

namespace sortie::iron3d {

using core::Json;

core::Result<LandMap> read_land_map(core::ByteView file, const ReadOptions& options, core::Diagnostics* findings) {
  SORTIE_TRY(auto archive, detail::read_land_container(file, options, findings));
  const auto streams = detail::land_streams(archive);
  return decode_land_map_streams(streams, options, findings);
}

namespace {
core::Result<std::vector<LandStreamOut>> land_map_streams(const LandMap& map) {
  SORTIE_TRY(auto payload, encode_land_map_payload(map));
  LandStreamOut s{map.entry, std::move(payload)};
  s.header.type_id = kLandMapEntryType;
  s.header.attr1 = static_cast<std::uint32_t>(map.areals.size());
  if (s.header.name.raw.empty()) s.header.name = core::FixedString::make("Res12", 36);
  std::vector<LandStreamOut> out;
  out.push_back(std::move(s));
  return out;
}
}  // namespace

core::Result<core::Bytes> write_land_map(const LandMap& map) {
  SORTIE_TRY(auto streams, land_map_streams(map));
  return detail::build_land_container(streams);
}

core::Result<core::Bytes> write_land_map(const LandMap& map, const NresArchive& original) {
  SORTIE_TRY(auto streams, land_map_streams(map));
  return detail::rebuild_land_container(streams, original, "land_map");
}

Json land_map_to_json(const LandMap& m) {
  Json j;
  j["format"] = "land_map";
  j["entry"] = {{"type_id", m.entry.type_id},
                {"attr1", m.entry.attr1},
                {"attr2", m.entry.attr2},
                {"attr3", m.entry.attr3},
                {"name", core::fixed_string_json(m.entry.name)}};
  Json areals = Json::array();
  std::size_t vertices = 0, links_set = 0;
  for (std::size_t i = 0; i < m.areals.size(); ++i) {
    const Areal& a = m.areals[i];
    vertices += a.vertices.size();
    Json o;
    o["index"] = i;
    o["anchor"] = detail::vec3_json(a.anchor);
    o["reserved_12"] = a.reserved_12;
    o["area_metric"] = a.area_metric;
    o["normal"] = detail::vec3_json(a.normal);
    o["logic_flag"] = a.logic_flag;
    o["reserved_36"] = a.reserved_36;
    o["class_id"] = a.class_id;
    o["reserved_44"] = a.reserved_44;
    o["vertex_count"] = a.vertices.size();
    o["poly_count"] = a.polygons.size();
    Json vs = Json::array();
    for (const auto& v : a.vertices) vs.push_back(detail::vec3_json(v));
    o["vertices"] = std::move(vs);
    Json ls = Json::array();
    for (const auto& l : a.links) {
      ls.push_back(Json::array({l.area_ref, l.edge_ref}));
      links_set += !l.is_none();
    }
    o["links"] = std::move(ls);
    Json ps = Json::array();
    for (const auto& p : a.polygons) ps.push_back({{"n", p.n}, {"raw_hex", core::to_hex(p.raw)}});
    o["polygons"] = std::move(ps);
    areals.push_back(std::move(o));
  }
  j["areal_count"] = m.areals.size();
  j["areal_vertex_count"] = vertices;
  j["linked_edges"] = links_set;
  j["areals"] = std::move(areals);
  const auto& g = m.grid;
  std::size_t max_hits = 0, non_empty = 0;
  for (auto c : g.cells) {
    max_hits = std::max<std::size_t>(max_hits, c >> 22);
    non_empty += (c >> 22) != 0;
  }
  j["grid"] = {{"cells_x", g.cells_x},        {"cells_y", g.cells_y},       {"cell_count", g.cells.size()},
               {"candidates", g.pool.size()}, {"max_candidates", max_hits}, {"non_empty_cells", non_empty}};
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view file_name) {
  if (!nres_has_magic(data)) return kDetectNone;
  const auto types = nres_directory_types(data);
  if (types && types->size() == 1 && types->front() == kLandMapEntryType) return kDetectContent;
  return detail::file_name_is(file_name, "Land.map") ? kDetectName : kDetectNone;
}

using LandMapFile = detail::LandFile<LandMap>;

constexpr FormatAdapter<LandMapFile> kLandMapFormat{
    .name = "land_map",
    .description = "Iron3D areal map (Land.map: NRes with one type 12 entry)",
    .detect = &detect,
    .read = &detail::read_land_file<LandMap, &decode_land_map_streams>,
    .json = [](const LandMapFile& f) { return land_map_to_json(f.decoded); },
    .write = [](const LandMapFile& f) { return write_land_map(f.decoded, f.archive); },
    .inspect_warnings = InspectWarnings::findings,
};

}  // namespace

FormatInfo land_map_format_info() {
  return format_info<LandMapFile, kLandMapFormat>();
}

}  // namespace sortie::iron3d
