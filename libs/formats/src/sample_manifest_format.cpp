// `sortie-sample.json` in the format table: the manifest `sortie sample` (assets::write_sample)
// writes beside the game files: generator version, scale, seed, the missions and the counts.
// It is canonical JSON (core::dump_json: sorted keys, two-space indent), so the writer is
// dump_json of what was read; a manifest edited by hand in another layout reads and checks but
// does not round-trip byte for byte (`sortie roundtrip` says where it differs).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "sortie/core/text.hpp"
#include "sortie/formats/formats.hpp"
#include "sortie/formats/limits.hpp"

namespace sortie::formats {

namespace {

using core::Diagnostic;
using core::Json;

constexpr std::string_view kFileName = "sortie-sample.json";
constexpr std::array<std::string_view, 9> kCounts = {"seed",     "prototypes", "unit_dats", "models", "materials",
                                                     "textures", "lightmaps",  "files",     "bytes"};
constexpr std::array<std::string_view, 2> kMissionCounts = {"placed_objects", "unit_references"};

int detect(core::ByteView data, std::string_view file_name) {
  // Content: a JSON object with the generator's two distinctive keys (a manifest is < 4 KiB).
  const std::string_view text = core::as_chars(data.first(std::min<std::size_t>(data.size(), kSniffBytes)));
  if (core::trim(text).starts_with('{') && text.find("\"generator_version\"") != std::string_view::npos &&
      text.find("\"objects_format\"") != std::string_view::npos)
    return kDetectContent;
  const auto slash = file_name.find_last_of("/\\");
  return core::iequals_ascii(slash == std::string_view::npos ? file_name : file_name.substr(slash + 1), kFileName)
             ? kDetectName
             : kDetectNone;
}

core::Result<Json> read(core::ByteView data, const ReadOptions& options, core::Diagnostics*) {
  const std::string file = options.file_name.empty() ? std::string(kFileName) : options.file_name;
  Json j = Json::parse(core::as_chars(data), nullptr, false);
  if (j.is_discarded())
    return core::fail(Diagnostic::error("sample_manifest.json", "not a JSON document").of(file).expect("JSON", "?"));
  auto field_error = [&](std::string field, std::string expected) {
    return core::fail(Diagnostic::error("sample_manifest.field", "manifest field missing or of the wrong type")
                          .of(file)
                          .in(std::move(field))
                          .expect(std::move(expected), "missing or other type"));
  };
  if (!j.is_object()) return field_error("(document)", "an object");
  if (!j.contains("generator_version") || !j["generator_version"].is_number_unsigned())
    return field_error("generator_version", "an unsigned integer");
  for (auto key : kCounts)
    if (!j.contains(key) || !j[std::string(key)].is_number_unsigned())
      return field_error(std::string(key), "an unsigned integer");
  if (!j.contains("scale") || !j["scale"].is_string() || (j["scale"] != "demo" && j["scale"] != "corpus"))
    return field_error("scale", "\"demo\" or \"corpus\"");
  if (!j.contains("objects_format") || !j["objects_format"].is_string() ||
      (j["objects_format"] != "rsli" && j["objects_format"] != "nres"))
    return field_error("objects_format", "\"rsli\" or \"nres\"");
  if (!j.contains("missions") || !j["missions"].is_array()) return field_error("missions", "an array");
  for (std::size_t i = 0; i < j["missions"].size(); ++i) {
    const Json& m = j["missions"][i];
    for (const char* key : {"name", "tma", "land_dir"})
      if (!m.is_object() || !m.contains(key) || !m[key].is_string())
        return field_error(fmt::format("missions[{}].{}", i, key), "a string");
    for (auto key : kMissionCounts)
      if (!m.contains(key) || !m[std::string(key)].is_number_unsigned())
        return field_error(fmt::format("missions[{}].{}", i, key), "an unsigned integer");
  }
  return j;
}

Json to_json(const Json& manifest) {
  Json j = manifest;
  j["format"] = "sample_manifest";
  return j;
}

core::Result<core::Bytes> write(const Json& manifest) {
  const std::string text = core::dump_json(manifest);
  return core::Bytes(text.begin(), text.end());
}

constexpr iron3d::FormatAdapter<Json> kSampleManifest{
    .name = "sample_manifest",
    .description = "the sample game's manifest (sortie-sample.json): generator version, scale, seed, missions, counts",
    .detect = &detect,
    .read = &read,
    .json = &to_json,
    .write = &write,
};

}  // namespace

FormatInfo sample_manifest_format_info() {
  return iron3d::format_info<Json, kSampleManifest>();
}

}  // namespace sortie::formats
