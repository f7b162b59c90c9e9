// Lint findings and reports (text, JSON, summary) and the pack-wide identity check.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "sortie/fomap/lint.hpp"

namespace sortie::fomap {

using core::Severity;

std::string Finding::to_string() const {
  std::string s = fmt::format("{}:{}: {}: [{}] {}", file, line, core::to_string(severity), rule, message);
  if (!placement.empty())
    s += fmt::format(" ({}{}{})", map.empty() ? "" : "map " + map + ", ", "", placement);
  else if (!map.empty())
    s += fmt::format(" (map {})", map);
  if (!fix.empty()) s += "; fix: " + fix;
  return s;
}

core::Json Finding::to_json() const {
  core::Json j;
  j["rule"] = rule;
  j["check"] = check;
  j["severity"] = std::string(core::to_string(severity));
  j["file"] = file;
  j["line"] = line;
  j["map"] = map;
  j["placement"] = placement;
  j["message"] = message;
  j["fix"] = fix;
  return j;
}

std::size_t LintReport::errors() const {
  return static_cast<std::size_t>(
      std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return f.severity == Severity::error; }));
}
std::size_t LintReport::warnings() const {
  return static_cast<std::size_t>(std::count_if(findings.begin(), findings.end(),
                                                [](const Finding& f) { return f.severity == Severity::warning; }));
}

std::string LintReport::summary() const {
  const std::size_t notes = findings.size() - errors() - warnings();
  return fmt::format("{} file{}, {} map{}, {} placement{}: {} error{}, {} warning{}, {} note{}", files,
                     files == 1 ? "" : "s", maps, maps == 1 ? "" : "s", placements, placements == 1 ? "" : "s",
                     errors(), errors() == 1 ? "" : "s", warnings(), warnings() == 1 ? "" : "s", notes,
                     notes == 1 ? "" : "s");
}

core::Json LintReport::to_json() const {
  core::Json j;
  j["files"] = files;
  j["maps"] = maps;
  j["placements"] = placements;
  j["errors"] = errors();
  j["warnings"] = warnings();
  j["summary"] = summary();
  core::Json list = core::Json::array();
  for (const auto& f : findings) list.push_back(f.to_json());
  j["findings"] = std::move(list);
  return j;
}

void LintReport::merge(LintReport other) {
  files += other.files;
  maps += other.maps;
  placements += other.placements;
  findings.insert(findings.end(), std::make_move_iterator(other.findings.begin()),
                  std::make_move_iterator(other.findings.end()));
}

std::vector<DeclaredMap> declared_maps(const MapContainer& container) {
  std::vector<DeclaredMap> out;
  for (const auto& m : container.maps())
    out.push_back(
        DeclaredMap{m.name, container.path(), m.anchors.empty() ? 0u : container.anchors()[m.anchors[0]].line});
  return out;
}

LintReport lint_pack_identity(const std::vector<DeclaredMap>& maps) {
  LintReport report;
  std::unordered_map<std::string, const DeclaredMap*> first;
  for (const auto& d : maps) {
    auto [it, inserted] = first.emplace(d.name, &d);
    if (inserted || it->second->file == d.file) continue;
    Finding f;
    f.rule = std::string(rule::kMapIdentity);
    f.check = "duplicate-name-in-pack";
    f.severity = Severity::error;
    f.file = d.file;
    f.line = d.line;
    f.map = d.name;
    f.message = fmt::format("map '{}' is also declared by {}:{}; the proto baker fails with a duplicate proto", d.name,
                            it->second->file, it->second->line);
    f.fix = "rename one of the maps ($Name, or the file for an unnamed anchor)";
    report.findings.push_back(std::move(f));
  }
  return report;
}

}  // namespace sortie::fomap
