// data.tma JSON model and its row in the format table.
#include <cmath>

#include "sortie/core/text.hpp"
#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {
namespace {

using core::Json;

// "key": utf8 text, plus "key_hex" with the raw bytes when the text does not survive decoding.
void put_text(Json& j, const char* key, const std::string& raw) {
  auto d = core::cp1251_to_utf8(raw);
  j[key] = std::move(d.utf8);
  if (!d.lossless) j[std::string(key) + "_hex"] = core::to_hex(core::as_bytes(raw));
}

Json vec3(const core::Vec3& v) {
  return Json::array({v.x, v.y, v.z});
}

// JSON has no NaN/Inf: a vector holding one also gets "<key>_hex" with its 12 raw bytes.
void put_vec3(Json& j, const char* key, const core::Vec3& v) {
  j[key] = vec3(v);
  if (std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z)) return;
  std::uint8_t raw[12];
  core::store_u32(raw, std::bit_cast<std::uint32_t>(v.x));
  core::store_u32(raw + 4, std::bit_cast<std::uint32_t>(v.y));
  core::store_u32(raw + 8, std::bit_cast<std::uint32_t>(v.z));
  j[std::string(key) + "_hex"] = core::to_hex(raw);
}

Json words(const std::array<std::uint32_t, 4>& w) {
  return Json::array({w[0], w[1], w[2], w[3]});
}

Json clan_json(const TmaClan& c) {
  Json j;
  put_text(j, "name", c.name);
  j["raw_id"] = c.raw_id;
  j["anchor_x"] = c.anchor_x;
  j["anchor_y"] = c.anchor_y;
  j["mode"] = c.mode;
  j["body"] = c.is_spatial() ? "spatial" : "standard";
  put_text(j, "first_resource", c.first_resource);
  if (c.is_spatial()) {
    Json groups = Json::array();
    for (const auto& g : c.spatial_groups) {
      Json records = Json::array();
      for (const auto& r : g.records) records.push_back(Json::array({r[0], r[1], r[2], r[3], r[4]}));
      groups.push_back(std::move(records));
    }
    j["spatial_groups"] = std::move(groups);
  } else {
    j["first_tag"] = c.first_tag;
  }
  put_text(j, "second_resource", c.second_resource);
  j["second_tag"] = c.second_tag;
  Json relations = Json::array();
  for (const auto& r : c.relations) {
    Json rj;
    put_text(rj, "other_clan", r.other_clan);
    rj["value"] = r.value;
    relations.push_back(std::move(rj));
  }
  j["relations"] = std::move(relations);
  return j;
}

Json object_json(const TmaObject& o, std::size_t index) {
  Json j;
  j["index"] = index;
  j["raw_kind"] = o.raw_kind;
  j["flags"] = o.flags;
  put_text(j, "resource_name", o.resource_name);
  j["raw_after_resource"] = o.raw_after_resource;
  j["identity_or_clan_raw"] = o.identity_or_clan_raw;
  put_vec3(j, "position", o.position);
  put_vec3(j, "orientation", o.orientation);
  put_vec3(j, "scale", o.scale);
  put_text(j, "instance_name", o.instance_name);
  j["raw_after_name"] = o.raw_after_name;
  j["link0"] = o.link0;
  j["link1"] = o.link1;
  j["property_schema_version"] = o.property_schema_version;
  Json props = Json::array();
  for (const auto& p : o.properties) {
    Json pj;
    put_text(pj, "name", p.name);
    pj["raw"] = words(p.raw);
    props.push_back(std::move(pj));
  }
  j["properties"] = std::move(props);
  return j;
}

int detect(core::ByteView data, std::string_view file_name) {
  // Content: the format word 1 then a whole strict parse (bounded, linear).
  if (data.size() >= 64 && core::load_u32(data.data()) == kTmaFormatVersion &&
      read_tma(data, {core::Profile::strict, std::string(file_name)}))
    return kDetectContent;
  return core::iends_with_ascii(file_name, ".tma") ? kDetectName : kDetectNone;
}

std::string tma_file_name(const ReadOptions& options) {
  return options.file_name.empty() ? "data.tma" : options.file_name;
}

// The mission and the size of the file it was read from (inspect reports both).
struct TmaFile {
  Tma tma;
  std::size_t size = 0;
};

core::Result<TmaFile> read(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  SORTIE_TRY(auto t, read_tma(data, {options.profile, tma_file_name(options)}, warnings));
  return TmaFile{std::move(t), data.size()};
}

Json to_json(const TmaFile& file) {
  Json j = tma_to_json(file.tma);
  j["size"] = file.size;
  return j;
}

core::Result<core::Diagnostics> validate(const TmaFile& file, const ReadOptions& options) {
  return check_tma(file.tma, tma_file_name(options));
}

constexpr FormatAdapter<TmaFile> kTmaFormat{
    .name = "tma",
    .description = "data.tma mission description: paths, clans, placed objects, land path, extras",
    .detect = &detect,
    .read = &read,
    .json = &to_json,
    .write = [](const TmaFile& file) { return write_tma(file.tma); },
    .validate = &validate,
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

std::string tma_text_utf8(std::string_view raw) {
  return core::cp1251_to_utf8(raw).utf8;
}

core::Json tma_to_json(const Tma& t) {
  Json j;
  j["format"] = "tma";
  j["format_version"] = t.format_version;
  Json paths = Json::array();
  for (const auto& p : t.paths) {
    Json points = Json::array();
    for (const auto& v : p.points) points.push_back(vec3(v));
    paths.push_back({{"id", p.id}, {"points", std::move(points)}});
  }
  j["paths"] = std::move(paths);
  j["clan_section_version"] = t.clan_section_version;
  Json clans = Json::array();
  for (const auto& c : t.clans) clans.push_back(clan_json(c));
  j["clans"] = std::move(clans);
  j["object_section_version"] = t.object_section_version;
  Json objects = Json::array();
  for (std::size_t i = 0; i < t.objects.size(); ++i) objects.push_back(object_json(t.objects[i], i));
  j["objects"] = std::move(objects);
  put_text(j, "land_path", t.land_path);
  j["mission_flag"] = t.mission_flag;
  put_text(j, "description_raw", t.description_raw);
  j["extra_section_version"] = t.extra_section_version;
  Json extras = Json::array();
  for (const auto& e : t.extras) extras.push_back({{"position", vec3(e.position)}, {"raw", words(e.raw)}});
  j["extras"] = std::move(extras);
  return j;
}

FormatInfo tma_format_info() {
  return format_info<TmaFile, kTmaFormat>();
}

}  // namespace sortie::iron3d
