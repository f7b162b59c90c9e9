// Lint's opt-in resource and script-function checks (references.hpp).
#include "sortie/fomap/references.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

using core::Severity;

struct RefCtx {
  const MapContainer& c;
  const MapDefinition& m;
  const Project& project;
  const LintOptions& o;
  LintReport& report;

  void add(std::string_view check, Severity severity, std::uint32_t line, const std::string& placement,
           std::string message, std::string fix) {
    Finding f;
    f.rule = std::string(rule::kPropertyOverrides);
    f.check = std::string(check);
    f.severity = severity;
    f.file = c.path();
    f.line = line;
    f.map = m.name;
    f.placement = placement;
    f.message = std::move(message);
    f.fix = std::move(fix);
    report.findings.push_back(std::move(f));
  }
};

// Where a checked value comes from.
struct Origin {
  std::uint32_t line = 0;
  std::string placement;  // "" for the map header
  std::string from;       // "" for an own value; " (inherited from prototype ...)" otherwise
};

std::string label_of(const Placement& p) {
  return fmt::format("{} $Id={} $Proto={}", to_string(p.kind),
                     p.has_id ? std::string(p.id_text) : std::string("<missing>"), std::string(p.proto));
}

bool relevant(const PropertyInfo* info, const LintOptions& o) {
  return info && ((info->resource && o.resources) || (!info->script_func.empty() && o.scripts));
}

void check_resource(RefCtx& x, const PropertyInfo& info, const std::string& value, const Origin& at) {
  const auto match = x.o.resources->find(value);
  if (match.kind == ResourceIndex::MatchKind::found) return;
  if (match.kind == ResourceIndex::MatchKind::missing) {
    x.add("resource-missing", Severity::error, at.line, at.placement,
          fmt::format("{} = {}{}: no file '{}' under the resource roots ({} files)", info.name, value, at.from,
                      match.normalized, x.o.resources->size()),
          "add the file, or fix the path (relative to a resource root; case does not matter)");
    return;
  }
  const bool exact =
      std::find(match.candidates.begin(), match.candidates.end(), match.normalized) != match.candidates.end();
  x.add("resource-ambiguous", exact && !x.o.strict ? Severity::warning : Severity::error, at.line, at.placement,
        fmt::format("{} = {}{}: {} files differ only in case ({}); a case-insensitive pack keeps one of them",
                    info.name, value, at.from, match.candidates.size(), fmt::join(match.candidates, ", ")),
        "rename or delete the files so that one spelling remains");
}

std::string function_name(std::string_view qualified) {
  const auto sep = qualified.rfind("::");
  return std::string(sep == std::string_view::npos ? qualified : qualified.substr(sep + 2));
}

void check_script(RefCtx& x, const PropertyInfo& info, const std::string& value, const Origin& at) {
  const ScriptSignature* sig = script_signature(info.script_func);
  const std::string wanted =
      sig ? fmt::format("{} {}({})", sig->return_type, function_name(value), fmt::join(sig->params, ", "))
          : function_name(value);
  const std::string attribute = sig && !sig->attribute.empty() ? fmt::format("[[{}]] ", sig->attribute) : std::string();
  const auto* all = x.o.scripts->find(value);
  std::vector<const ScriptFunction*> server;
  const ScriptFunction* other_side = nullptr;
  if (all)
    for (const auto& f : *all) {
      if (f.server)
        server.push_back(&f);
      else if (!other_side)
        other_side = &f;
    }
  if (server.empty()) {
    const auto sep = value.rfind("::");
    std::string where = sep == std::string::npos ? std::string("the global namespace")
                                                 : fmt::format("namespace {}", value.substr(0, sep));
    std::string note;
    if (other_side)
      note = fmt::format("; {}:{} defines it in a script whose `// FOS` header excludes the server", other_side->file,
                         other_side->line);
    else if (value.find('@') != std::string::npos)
      note = "; `module@function` is the legacy form, the engine expects Namespace::Function";
    x.add("script-not-found", Severity::error, at.line, at.placement,
          fmt::format("{} = {}{}: no server script function '{}' in {} ({} functions indexed){}", info.name, value,
                      at.from, function_name(value), where, x.o.scripts->size(), note),
          fmt::format("define `{}{}` in {} of a server script, or fix the name", attribute, wanted, where));
    return;
  }
  if (!sig) return;  // a project ScriptFuncType this catalog has no signature for: existence only
  const ScriptFunction* match = nullptr;
  for (const ScriptFunction* f : server) {
    if (f->return_type != sig->return_type || f->params.size() != sig->params.size()) continue;
    if (std::equal(f->params.begin(), f->params.end(), sig->params.begin())) {
      match = f;
      break;
    }
  }
  if (!match) {
    std::vector<std::string> found;
    for (const ScriptFunction* f : server)
      found.push_back(fmt::format("`{}` at {}:{}", f->signature(), f->file, f->line));
    x.add(
        "script-signature", Severity::error, at.line, at.placement,
        fmt::format("{} = {}{}: expected {}, found {}", info.name, value, at.from, sig->text(), fmt::join(found, ", ")),
        fmt::format("declare it as `{}{}`", attribute, wanted));
    return;
  }
  if (!sig->attribute.empty() && !match->has_attribute(sig->attribute))
    x.add("script-attribute", Severity::error, at.line, at.placement,
          fmt::format("{} = {}{}: `{}` at {}:{} lacks [[{}]]", info.name, value, at.from, match->signature(),
                      match->file, match->line, sig->attribute),
          fmt::format("add [[{}]] before the function", sig->attribute));
}

void check_text(RefCtx& x, const PropertyInfo& info, std::string_view text, const Origin& at) {
  auto v = parse_value(info.type, text, x.project.properties);
  if (!v) return;  // a malformed value is the property check's finding
  for (const auto& e : v->elements) {
    if (e.text.empty()) continue;  // empty hstring = unset
    if (info.resource && x.o.resources) check_resource(x, info, e.text, at);
    if (!info.script_func.empty() && x.o.scripts) check_script(x, info, e.text, at);
  }
}

struct Inherited {
  const Placement* first = nullptr;
  const Proto* proto = nullptr;
  const PropertyInfo* info = nullptr;
  std::string_view value;
  std::size_t count = 0;
};

}  // namespace

void check_map_references(const MapContainer& container, const MapDefinition& m, const Project& project,
                          const LintOptions& options, LintReport& report) {
  if (!options.resources && !options.scripts) return;
  RefCtx x{container, m, project, options, report};
  const PropertyCatalog& cat = project.properties;
  for (std::size_t ai : m.anchors) {
    for (const auto& e : container.section(container.anchors()[ai].section).entries) {
      if (e.key.empty() || e.key.front() == '$' || e.key.front() == '_') continue;
      const PropertyInfo* info = cat.find("Map", e.key);
      if (relevant(info, options)) check_text(x, *info, e.value, Origin{e.line, "", ""});
    }
  }
  // Relevant resolved keys per prototype, and inherited values once per (prototype, property).
  std::unordered_map<const Proto*, std::vector<std::pair<const PropertyInfo*, std::string_view>>> proto_refs;
  std::vector<Inherited> inherited;
  std::unordered_map<const Proto*, std::vector<std::size_t>> inherited_of;  // proto -> indices into inherited
  std::vector<const PropertyInfo*> own;
  for (const auto* list : {&m.critters, &m.items}) {
    for (const Placement& p : *list) {
      if (!p.has_proto) continue;
      const std::string_view entity = receiver_of(p.kind);
      own.clear();
      for (const auto& e : container.section(p.section).entries) {
        if (e.key.empty() || e.key.front() == '$' || e.key.front() == '_') continue;
        const PropertyInfo* info = cat.find(entity, e.key);
        if (!relevant(info, options)) continue;
        own.push_back(info);
        check_text(x, *info, e.value, Origin{e.line, label_of(p), ""});
      }
      const Proto* proto = find_placement_proto(project, p);
      if (!proto) continue;
      auto [it, inserted] = proto_refs.try_emplace(proto);
      if (inserted)
        for (const auto& [key, value] : proto->resolved) {
          const PropertyInfo* info = cat.find(entity, key);
          if (relevant(info, options)) it->second.emplace_back(info, value);
        }
      for (const auto& [info, value] : it->second) {
        if (std::find(own.begin(), own.end(), info) != own.end()) continue;
        auto& indices = inherited_of[proto];
        auto hit = std::find_if(indices.begin(), indices.end(),
                                [&, info_ = info](std::size_t i) { return inherited[i].info == info_; });
        if (hit != indices.end()) {
          ++inherited[*hit].count;
          continue;
        }
        indices.push_back(inherited.size());
        inherited.push_back(Inherited{&p, proto, info, value, 1});
      }
    }
  }
  for (const auto& h : inherited) {
    const std::string from = fmt::format(" (inherited from prototype '{}' at {}:{}; {} placement{} of this map)",
                                         h.proto->name, h.proto->file, h.proto->line, h.count, h.count == 1 ? "" : "s");
    check_text(x, *h.info, h.value, Origin{h.first->line, label_of(*h.first), from});
  }
}

std::vector<SkippedCheck> skipped_checks(const Project& project, const LintOptions& options) {
  std::vector<SkippedCheck> out;
  if (!project.has_protos) out.push_back({"prototypes", "no --protos"});
  for (auto& s : skipped_reference_checks(options)) out.push_back(std::move(s));
  return out;
}

std::vector<SkippedCheck> skipped_reference_checks(const LintOptions& options) {
  std::vector<SkippedCheck> out;
  if (!options.resources) out.push_back({"resources", "no --resources"});
  if (!options.scripts) out.push_back({"scripts", "no --scripts"});
  return out;
}

}  // namespace sortie::fomap
