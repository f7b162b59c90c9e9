// Baking a pack of map containers with the cross-file rules (bake_pack.hpp).
#include "sortie/fomap/bake_pack.hpp"

#include <fmt/format.h>

#include <map>

#include "sortie/core/file_io.hpp"

namespace sortie::fomap {

namespace fs = std::filesystem;
using core::Diagnostic;

std::size_t PackReport::baked() const {
  std::size_t n = 0;
  for (const auto& m : maps) n += m.ok() ? 1 : 0;
  return n;
}

std::size_t PackReport::failed() const {
  return maps.size() - baked();
}

core::Json PackReport::to_json() const {
  core::Json list = core::Json::array();
  for (const auto& m : maps) {
    if (m.ok())
      list.push_back(m.baked->summary_json());
    else
      list.push_back(core::Json{{"map", m.map}, {"source", m.source}, {"errors", core::diagnostics_json(m.errors)}});
  }
  return core::Json{{"maps", std::move(list)},
                    {"summary", {{"baked", baked()}, {"failed", failed()}, {"files", files}}}};
}

PackReport bake_pack(const std::vector<fs::path>& paths, const Project& project, const PackOptions& options,
                     const PackProgress& progress) {
  PackReport report;
  if (!options.output.empty()) {
    std::error_code ec;
    fs::create_directories(options.output, ec);
    if (ec || !fs::is_directory(options.output, ec)) {
      report.io_errors.push_back(
          Diagnostic::error("io.output", "cannot create the output directory").of(options.output.string()));
      return report;
    }
  }
  std::vector<fs::path> files;
  for (const auto& p : paths) {
    const std::vector<fs::path> found = find_map_containers({p});
    std::error_code ec;
    if (found.empty() && fs::is_directory(p, ec))
      report.io_errors.push_back(
          Diagnostic::error("usage.no_maps",
                            "no map container (a proto container declaring [ProtoMap]) below this directory")
              .of(p.string()));
    files.insert(files.end(), found.begin(), found.end());
  }
  report.files = files.size();

  const BakeRegistrars registrars(project.properties);
  BakeSession session(project, registrars, options.bake);
  std::map<std::string, std::string, std::less<>> baked_from;  // map id -> the container that baked it
  bool only_declared = false;                                  // a container declares options.only
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& path = files[i];
    if (progress) progress(i, files.size(), path);
    auto text = core::read_text_file(path);
    if (!text) {
      report.io_errors.push_back(text.error());
      continue;
    }
    const MapContainer container = MapContainer::from_text(std::move(*text), path.string());
    for (const MapDefinition& map : container.maps()) {
      if (!options.only.empty() && map.name != options.only) continue;
      only_declared = true;
      PackEntry entry{map.name, path.string(), std::nullopt, {}};
      BakeOutcome outcome = session.bake_map(container, map);
      entry.errors = std::move(outcome.errors);
      if (outcome.baked) {
        auto [first, fresh] = baked_from.emplace(map.name, path.string());
        if (!fresh)
          entry.errors.push_back(
              Diagnostic::error("fomap.bake.duplicate_map", "map id already baked from another container")
                  .of(path.string())
                  .expect("unique map ids in a pack", first->second));
      }
      if (entry.errors.empty() && outcome.baked && !options.output.empty()) {
        if (auto written = write_baked_map(*outcome.baked, options.output); !written)
          entry.errors.push_back(written.error());
      }
      if (entry.errors.empty() && outcome.baked) {
        outcome.baked->server_blob = {};
        outcome.baked->client_blob = {};
        entry.baked = std::move(outcome.baked);
      }
      report.maps.push_back(std::move(entry));
    }
    if (container.maps().empty() && !container.structure_errors().empty()) {
      PackEntry entry{container.stem(), path.string(), std::nullopt, {}};
      for (const auto& e : container.structure_errors())
        entry.errors.push_back(
            Diagnostic::error(e.code, e.message).of(path.string()).in(fmt::format("line {}", e.line)));
      report.maps.push_back(std::move(entry));
    }
  }
  if (!options.only.empty() && !only_declared)
    report.io_errors.push_back(
        Diagnostic::error("usage.only_unknown", "--only names a map that no container of the inputs declares")
            .expect("a map id declared by a container", options.only));
  return report;
}

}  // namespace sortie::fomap
