// `.fomap` in the format table (spec/fomap.md): FOnline map containers of every generation
// (§14) read through libs/fomap — the ConfigFile grammar, the MapContainer loader, the legacy
// detector and the lint gate. Inspect reports sections, placement counts, prototype
// references and header keys; check is the lint gate (engine-compatible or strict); there is
// no roundtrip: a map's text is its own model (`sortie fomap fmt` writes the canonical form).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "sortie/core/text.hpp"
#include "sortie/fomap/lint.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/migrate.hpp"
#include "sortie/fomap/project.hpp"
#include "sortie/formats/formats.hpp"
#include "sortie/formats/limits.hpp"

namespace sortie::formats {

namespace {

using core::Diagnostic;
using core::Json;

// Text whose first non-blank byte opens a section (after an optional UTF-8 BOM), with no NUL
// byte near the start: cheap enough to ask of any file before the section scan.
bool looks_like_sections(core::ByteView data) {
  std::string_view text = core::as_chars(data.first(std::min<std::size_t>(data.size(), kSniffBytes)));
  if (text.find('\0') != std::string_view::npos) return false;
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '[';
}

int detect(core::ByteView data, std::string_view file_name) {
  if (looks_like_sections(data) && fomap::detect_legacy_format(core::as_chars(data)) != fomap::LegacyFormat::unknown)
    return kDetectContent;
  return core::iends_with_ascii(file_name, ".fomap") ? kDetectName : kDetectNone;
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::size_t p = 0; p < line.size();) {
    while (p < line.size() && (line[p] == ' ' || line[p] == '\t' || line[p] == '\r')) ++p;
    std::size_t q = p;
    while (q < line.size() && line[q] != ' ' && line[q] != '\t' && line[q] != '\r') ++q;
    if (q > p) out.push_back(line.substr(p, q - p));
    p = q;
  }
  return out;
}

// Physical lines first..last (1-based, inclusive) of `text`.
template <typename Fn>
void for_lines(std::string_view text, std::uint32_t first, std::uint32_t last, Fn&& fn) {
  std::uint32_t number = 1;
  for (std::size_t start = 0; start <= text.size() && number <= last; ++number) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (number >= first) fn(text.substr(start, end - start));
    start = end + 1;
  }
}

struct Counts {
  std::map<std::string, std::uint64_t> kinds;   // critters, items, scenery, tiles
  std::map<std::string, std::uint64_t> protos;  // proto name or pid -> references
  std::map<std::string, std::uint64_t> tile_kinds;
  std::vector<std::string> header_keys;
};

// Current and bare generations: placement sections and `$Proto`, header keys of [ProtoMap].
void count_sections(const fomap::ConfigFile& config, Counts& c) {
  for (const auto& s : config.sections()) {
    const std::string_view kind = s.name.substr(s.name.find('/') == std::string_view::npos ? 0 : s.name.find('/') + 1);
    if (s.name == "ProtoMap") {
      for (const auto& e : s.entries)
        if (std::find(c.header_keys.begin(), c.header_keys.end(), e.key) == c.header_keys.end())
          c.header_keys.emplace_back(e.key);
      continue;
    }
    const char* counted = kind == "Critter" ? "critters"
                          : kind == "Item"  ? "items"
                          : kind == "Tile"  ? "tiles"
                                            : nullptr;
    if (!counted) continue;
    ++c.kinds[counted];
    if (const auto* proto = s.find("$Proto")) ++c.protos[std::string(proto->value)];
  }
}

// Classic SDK maps (§14): `Key value` header lines, `[Tiles]` lines `<kind> x y ... path`,
// `[Objects]` blocks opened by `MapObjType N` (0 critter, 1 item, 2 scenery) with `ProtoId`.
void count_classic(const fomap::ConfigFile& config, Counts& c) {
  static constexpr const char* kObjectKinds[] = {"critters", "items", "scenery"};
  for (const auto& s : config.sections()) {
    if (s.header_line == 0) continue;
    for_lines(config.text(), s.header_line + 1, s.end_line, [&](std::string_view line) {
      const auto w = words(line);
      if (w.empty()) return;
      if (s.name == "Header") {
        c.header_keys.emplace_back(w[0]);
      } else if (s.name == "Tiles") {
        ++c.kinds["tiles"];
        ++c.tile_kinds[std::string(w[0])];
      } else if (s.name == "Objects" && w.size() >= 2) {
        int type = -1;
        if (w[0] == "MapObjType" && std::from_chars(w[1].data(), w[1].data() + w[1].size(), type).ec == std::errc())
          ++c.kinds[type >= 0 && type <= 2 ? kObjectKinds[type] : "other_objects"];
        else if (w[0] == "ProtoId")
          ++c.protos[std::string(w[1])];
      }
    });
  }
}

// A map's text is its own model: the file is kept as read, and inspect and check build the
// loader's container from it (the container holds views into its own text, so it is not moved
// around as a model).
struct FomapFile {
  std::string text;
  std::string file_name;
};

core::Result<FomapFile> read(core::ByteView data, const ReadOptions& options, core::Diagnostics*) {
  return FomapFile{std::string(core::as_chars(data)), options.file_name};
}

Json to_json(const FomapFile& file) {
  const fomap::LegacyFormat generation = fomap::detect_legacy_format(file.text);
  const auto container = fomap::MapContainer::from_text(file.text, file.file_name);
  const fomap::ConfigFile& config = container.config();
  Json j;
  j["format"] = "fomap";
  j["generation"] = std::string(fomap::to_string(generation));
  j["lines"] = config.facts().line_count;
  Json sections = Json::array();
  std::map<std::string_view, std::size_t> at;  // section name -> index in `sections`
  for (const auto& s : config.sections()) {
    if (s.header_line == 0) continue;
    const auto [it, fresh] = at.emplace(s.name, sections.size());
    if (fresh) sections.push_back({{"name", std::string(s.name)}, {"first_line", s.header_line}, {"count", 0}});
    sections[it->second]["count"] = sections[it->second]["count"].get<std::size_t>() + 1;
  }
  j["sections"] = std::move(sections);

  Counts c;
  if (generation == fomap::LegacyFormat::classic)
    count_classic(config, c);
  else
    count_sections(config, c);
  for (const char* kind : {"critters", "items"}) c.kinds.try_emplace(kind, 0);
  j["counts"] = c.kinds;
  if (!c.tile_kinds.empty()) j["tile_kinds"] = c.tile_kinds;
  j["header_keys"] = c.header_keys;
  j["distinct_protos"] = c.protos.size();
  Json protos = Json::array();
  for (const auto& [proto, n] : c.protos) protos.push_back({{"proto", proto}, {"references", n}});
  j["protos"] = std::move(protos);

  // The loader's view: the maps the engine would load, or why it would refuse the file.
  Json maps = Json::array();
  for (const auto& m : container.maps())
    maps.push_back({{"name", m.name}, {"critters", m.critters.size()}, {"items", m.items.size()}});
  j["maps"] = std::move(maps);
  j["loadable"] = container.loadable();
  if (!container.structure_errors().empty()) {
    Json errors = Json::array();
    for (const auto& e : container.structure_errors())
      errors.push_back({{"code", e.code}, {"line", e.line}, {"section", e.section}, {"message", e.message}});
    j["structure_errors"] = std::move(errors);
  }
  return j;
}

Diagnostic to_diagnostic(const fomap::Finding& f) {
  Diagnostic d = Diagnostic::error(
      fmt::format("{}.{}", f.rule, f.check),
      fmt::format("line {}: {}{}", f.line, f.message, f.placement.empty() ? "" : " (" + f.placement + ")"));
  d.severity = f.severity;
  if (!f.map.empty()) d = std::move(d).in(fmt::format("maps[{}]", f.map));
  return std::move(d).of(f.file);
}

// The lint gate without prototypes: engine-compatible in the compatible profile, the strict
// gate (spec §8.3) in the strict profile. The first error fails the file.
core::Result<core::Diagnostics> validate(const FomapFile& file, const ReadOptions& options) {
  const auto container = fomap::MapContainer::from_text(file.text, file.file_name);
  const fomap::Project project{};
  const auto report = fomap::lint_container(container, project, {.strict = options.profile == core::Profile::strict});
  core::Diagnostics out;
  Diagnostic unchecked =
      Diagnostic::error("fomap.check.protos",
                        "checked without the project's files: prototype references and project property "
                        "declarations not checked (`sortie fomap lint --protos DIR` loads them)")
          .of(options.file_name);
  unchecked.severity = core::Severity::note;
  out.push_back(std::move(unchecked));
  for (const auto& f : report.findings) {
    if (f.severity != core::Severity::error) {
      out.push_back(to_diagnostic(f));
      continue;
    }
    Diagnostic d = to_diagnostic(f);
    if (report.errors() > 1) d.message += fmt::format(" (first of {} errors)", report.errors());
    if (!f.fix.empty()) d.message += "; fix: " + f.fix;
    return core::fail(std::move(d));
  }
  return out;
}

// No roundtrip: the canonical form is `sortie fomap fmt`, not the file as read.
constexpr iron3d::FormatAdapter<FomapFile> kFomapFormat{
    .name = "fomap",
    .description = "FOnline map container (.fomap, every generation): sections, placements, prototype references",
    .detect = &detect,
    .read = &read,
    .json = &to_json,
    .validate = &validate,
};

}  // namespace

FormatInfo fomap_format_info() {
  return iron3d::format_info<FomapFile, kFomapFormat>();
}

}  // namespace sortie::formats
