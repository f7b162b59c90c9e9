// Project loading: proto directories, project tables (spec/fomap.md §13, §5).
#include "sortie/fomap/project.hpp"

#include <algorithm>
#include <set>

#include "sortie/core/file_io.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

// `Baking.ProtoFileExtensions` of a .fomain (default-section key), split on blanks.
std::set<std::string> extensions_from_fomain(const fs::path& path) {
  std::set<std::string> out;
  auto text = core::read_text_file(path);
  if (!text) return out;
  ConfigFile cfg = parse_config(std::move(*text));
  for (const auto& s : cfg.sections()) {
    if (const ConfigEntry* e = s.find("Baking.ProtoFileExtensions")) {
      std::string_view v = e->value;
      std::size_t i = 0;
      while (i < v.size()) {
        while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i;
        const std::size_t b = i;
        while (i < v.size() && v[i] != ' ' && v[i] != '\t') ++i;
        if (i > b) out.emplace(v.substr(b, i - b));
      }
    }
  }
  return out;
}

}  // namespace

Project Project::load(const std::vector<fs::path>& dirs) {
  Project project;
  std::vector<fs::path> files;
  std::set<std::string> extensions;
  for (const auto& d : dirs) {
    std::error_code ec;
    if (fs::is_regular_file(d, ec)) {
      files.push_back(d);
      continue;
    }
    if (!fs::is_directory(d, ec)) {
      project.load_notes.push_back(
          core::Diagnostic::error("io.open", "protos path is neither a file nor a directory").of(d.generic_string()));
      continue;
    }
    for (auto it = fs::recursive_directory_iterator(d, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_regular_file(ec)) files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files)
    if (f.extension() == ".fomain")
      for (auto& e : extensions_from_fomain(f)) extensions.insert(e);
  auto read_table = [&](const fs::path& f, auto method) {
    auto text = core::read_text_file(f);
    if (!text) {
      project.load_notes.push_back(text.error());
      return;
    }
    auto notes = (project.properties.*method)(*text, f.generic_string());
    project.load_notes.insert(project.load_notes.end(), notes.begin(), notes.end());
  };
  for (const auto& f : files)
    if (f.filename() == "_project_enums.tsv") read_table(f, &PropertyCatalog::add_project_enums);
  for (const auto& f : files)
    if (f.filename() == "_project_property_declarations.tsv") read_table(f, &PropertyCatalog::add_project_declarations);
  for (const auto& f : files)
    if (f.filename() == "_project_migration_rules.tsv") read_table(f, &PropertyCatalog::add_migration_rules);
  for (const auto& f : files) {
    std::string ext = f.extension().string();
    if (ext.empty()) continue;
    ext.erase(0, 1);
    const bool wanted = extensions.empty() ? is_proto_file_extension(ext) : extensions.count(ext) > 0;
    if (!wanted) continue;
    auto notes = project.protos.add_file(f);
    project.load_notes.insert(project.load_notes.end(), notes.begin(), notes.end());
    project.has_protos = true;
  }
  auto notes = project.protos.resolve(project.properties);
  project.load_notes.insert(project.load_notes.end(), notes.begin(), notes.end());
  return project;
}

std::string_view receiver_of(PlacementKind kind) {
  return to_string(kind);
}

const Proto* find_placement_proto(const Project& project, const Placement& placement) {
  if (!placement.has_proto) return nullptr;
  const std::string_view type = receiver_of(placement.kind);
  std::string_view name = placement.proto;
  if (auto m = project.properties.migrate_proto(type, name)) name = *m;
  return project.protos.find(type, name);
}

std::optional<std::string_view> effective_text(const Project& project, const MapContainer& container,
                                               const Placement& placement, std::string_view property) {
  if (const ConfigEntry* e = container.section(placement.section).find(property)) return e->value;
  if (const Proto* p = find_placement_proto(project, placement)) {
    auto it = p->resolved.find(property);
    if (it != p->resolved.end()) return std::string_view(it->second);
  }
  return std::nullopt;
}

}  // namespace sortie::fomap
