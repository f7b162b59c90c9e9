// The native script bundles of a mission (script_bundle.hpp; docs/script-bundles.md).
#include "sortie/assets/script_bundle.hpp"

#include <fmt/format.h>

#include <map>

#include "sortie/core/text.hpp"

namespace sortie::assets {

std::string script_package_name(std::string_view base) {
  return core::iends_with_ascii(base, ".scr") ? std::string(base) : std::string(base) + ".scr";
}

std::string script_stem(std::string_view base) {
  if (base.size() > 4 && (base.ends_with(".scr") || base.ends_with(".SCR"))) base.remove_suffix(4);
  return std::string(base);
}

namespace {

using core::Diagnostic;

struct SelectorCount {
  std::size_t unknown = 0;
  std::string first;  // field path of the first unknown selector
  std::uint32_t first_word = 0;
};

class BundleLoader {
 public:
  BundleLoader(ArchiveRepository& repo, PrototypeResolver& resolver, std::string_view mission, std::uint32_t node,
               DependencyGraph& graph, core::Profile profile)
      : repo_(repo), resolver_(resolver), mission_(mission), mission_node_(node), graph_(graph), profile_(profile) {}

  std::optional<ScriptBundle> load(const iron3d::TmaClan& clan, std::size_t ci) {
    ScriptBundle b;
    b.clan_index = ci;
    b.clan_name = clan.name;
    b.base = clean_legacy_name(clan.first_resource);
    if (b.base.empty()) return std::nullopt;
    b.stem = script_stem(b.base);
    head_ = fmt::format("{}: clans[{}] '{}'", mission_, ci, core::trim(clan.name));
    row_ = static_cast<std::int32_t>(ci);
    const auto scr_node = load_package(b);
    if (!scr_node) return std::nullopt;
    load_varset(b, *scr_node);
    load_formulas(b, *scr_node);
    const std::string trf = clean_legacy_name(clan.second_resource);
    if (!trf.empty()) load_trf(b, trf);
    return b;
  }

 private:
  // A failed edge from `from` to a node for `path`, with the chain in the message.
  void fail(std::uint32_t from, NodeKind kind, const std::string& path, EdgeKind edge, std::string code, Diagnostic d,
            std::int32_t row = -2) {
    const std::uint32_t to = graph_.node(kind, path);
    d.severity = core::Severity::error;
    if (d.file.empty()) d.file = path;
    d.message = fmt::format("{} -> {}: {}: {} ({})", head_, to_string(edge), path, d.message, d.code);
    d.code = std::move(code);
    graph_.fail(Edge{from, to, edge, -1, -1, row == -2 ? row_ : row, std::nullopt}, std::move(d));
  }
  void edge(std::uint32_t from, std::uint32_t to, EdgeKind kind, std::int32_t row = -2) {
    graph_.add_edge(Edge{from, to, kind, -1, -1, row == -2 ? row_ : row, std::nullopt});
  }
  // A validation finding: a failed edge in the strict profile, a warning in the compatible one.
  // Returns true when it failed the edge.
  bool finding(std::uint32_t from, NodeKind kind, const std::string& path, EdgeKind edge, Diagnostic d) {
    if (profile_ == core::Profile::strict) {
      std::string code = d.code;
      fail(from, kind, path, edge, std::move(code), std::move(d));
      return true;
    }
    warn(path, std::move(d));
    return false;
  }
  void warn(const std::string& path, Diagnostic d) {
    d.severity = core::Severity::warning;
    if (d.file.empty()) d.file = path;
    d.message = fmt::format("{} -> {}: {}", head_, path, d.message);
    graph_.warnings.push_back(std::move(d));
  }

  // Reads a file: nullopt and a failed edge when it cannot be read.
  std::optional<core::Bytes> read(std::uint32_t from, NodeKind kind, const std::string& raw_path, EdgeKind edge,
                                  std::string_view code, std::string* path_out) {
    auto p = normalize_path(raw_path, PathPolicy::strict_legacy);
    if (!p) {
      fail(from, kind, raw_path, edge, fmt::format("{}_path", code), p.error());
      return std::nullopt;
    }
    *path_out = p->path;
    auto bytes = repo_.vfs().read(*p);
    if (!bytes) {
      fail(from, kind, p->path, edge, fmt::format("{}_missing", code), bytes.error());
      return std::nullopt;
    }
    return std::move(*bytes);
  }

  std::optional<std::uint32_t> load_package(ScriptBundle& b) {
    auto bytes = read(mission_node_, NodeKind::script, script_package_name(b.base), EdgeKind::mission_to_script,
                      "load.script", &b.scr_path);
    if (!bytes) return std::nullopt;
    // The framing is read leniently; the version is checked here with its own code.
    auto pkg = iron3d::read_scr(*bytes, iron3d::ReadOptions{core::Profile::compatible, b.scr_path});
    if (!pkg) {
      fail(mission_node_, NodeKind::script, b.scr_path, EdgeKind::mission_to_script, "load.script_invalid",
           pkg.error());
      return std::nullopt;
    }
    b.package = std::move(pkg->package);
    const std::uint32_t node = graph_.node(NodeKind::script, b.scr_path);
    if (b.package.handler_count != iron3d::kScrHandlerCount &&
        finding(mission_node_, NodeKind::script, b.scr_path, EdgeKind::mission_to_script,
                Diagnostic::error("load.script_version",
                                  "package built for another handler table (a version mismatch, not an unknown "
                                  "command)")
                    .of(b.scr_path)
                    .at(0)
                    .in("handler_count")
                    .expect(fmt::format("{} handlers", iron3d::kScrHandlerCount),
                            fmt::format("{}", b.package.handler_count))))
      return std::nullopt;
    edge(mission_node_, node, EdgeKind::mission_to_script);
    report_selectors(b);
    return node;
  }

  void report_selectors(const ScriptBundle& b) {
    SelectorCount s;
    for (std::size_t e = 0; e < b.package.events.size(); ++e)
      for (std::size_t i = 0; i < b.package.events[e].instructions.size(); ++i) {
        const std::uint32_t w0 = b.package.events[e].instructions[i].selector_word();
        if (iron3d::scr_selector(w0).kind != iron3d::ScrSelector::Kind::unknown) continue;
        if (s.unknown++ == 0) {
          s.first = fmt::format("events[{}].instructions[{}].w0", e, i);
          s.first_word = w0;
        }
      }
    if (s.unknown == 0) return;
    warn(b.scr_path, Diagnostic::warning("load.script_selector",
                                         fmt::format("{} instruction(s) with an unknown dispatch selector (kept, "
                                                     "traced when reached)",
                                                     s.unknown))
                         .of(b.scr_path)
                         .in(s.first)
                         .expect("a handler 0..72 or the sentinel 0xFFFFFFFF", fmt::format("0x{:08X}", s.first_word)));
  }

  void load_varset(ScriptBundle& b, std::uint32_t scr_node) {
    const std::string personal = b.stem + ".var";
    auto pp = normalize_path(personal, PathPolicy::strict_legacy);
    const bool has_personal = pp && repo_.vfs().exists(*pp);
    const std::string raw = has_personal ? personal : std::string(kSharedVarsetPath);
    b.shared_varset = !has_personal;
    auto bytes = read(scr_node, NodeKind::varset, raw, EdgeKind::script_to_varset, "load.varset", &b.varset_path);
    if (!bytes) return;
    auto& cached = varsets_[core::ascii_upper(b.varset_path)];
    if (!cached) {
      core::Diagnostics warnings;
      auto vs = iron3d::read_varset(*bytes, iron3d::ReadOptions{profile_, b.varset_path}, &warnings);
      if (!vs) {
        fail(scr_node, NodeKind::varset, b.varset_path, EdgeKind::script_to_varset, "load.varset_invalid", vs.error());
        return;
      }
      for (auto& w : warnings) warn(b.varset_path, std::move(w));
      cached = std::make_shared<const iron3d::Varset>(std::move(*vs));
    }
    b.varset = cached;
    if (!check_references(b, scr_node))
      edge(scr_node, graph_.node(NodeKind::varset, b.varset_path), EdgeKind::script_to_varset);
  }

  // Every reference index inside the varset. Returns true when it failed the edge.
  bool check_references(const ScriptBundle& b, std::uint32_t scr_node) {
    const std::size_t n = b.varset->vars.size();
    std::size_t bad = 0;
    std::string first;
    std::uint32_t first_index = 0;
    for (std::size_t e = 0; e < b.package.events.size(); ++e)
      for (std::size_t i = 0; i < b.package.events[e].instructions.size(); ++i) {
        const auto& refs = b.package.events[e].instructions[i].references;
        for (std::size_t r = 0; r < refs.size(); ++r) {
          if (refs[r] < n) continue;
          if (bad++ == 0) {
            first = fmt::format("events[{}].instructions[{}].references[{}]", e, i, r);
            first_index = refs[r];
          }
        }
      }
    if (bad == 0) return false;
    return finding(scr_node, NodeKind::varset, b.varset_path, EdgeKind::script_to_varset,
                   Diagnostic::error("load.script_reference",
                                     fmt::format("{} reference(s) outside the varset's {} declarations", bad, n))
                       .of(b.scr_path)
                       .in(first)
                       .expect(fmt::format("an index < {}", n), fmt::format("{}", first_index)));
  }

  void load_formulas(ScriptBundle& b, std::uint32_t scr_node) {
    auto p = normalize_path(b.stem + ".fml", PathPolicy::strict_legacy);
    if (!p || !repo_.vfs().exists(*p)) return;  // optional
    auto bytes = read(scr_node, NodeKind::formula, p->path, EdgeKind::script_to_formula, "load.formula", &b.fml_path);
    if (!bytes) return;
    core::Diagnostics warnings;
    auto f = iron3d::read_fml(*bytes, iron3d::ReadOptions{profile_, b.fml_path}, &warnings);
    if (!f) {
      fail(scr_node, NodeKind::formula, b.fml_path, EdgeKind::script_to_formula, "load.formula_invalid", f.error());
      return;
    }
    for (auto& w : warnings) warn(b.fml_path, std::move(w));
    b.formulas = std::move(*f);
    edge(scr_node, graph_.node(NodeKind::formula, b.fml_path), EdgeKind::script_to_formula);
  }

  void load_trf(ScriptBundle& b, const std::string& raw) {
    auto bytes = read(mission_node_, NodeKind::trf, raw, EdgeKind::mission_to_trf, "load.trf", &b.trf_path);
    if (!bytes) return;
    core::Diagnostics warnings;
    auto t = iron3d::read_trf(*bytes, iron3d::ReadOptions{profile_, b.trf_path}, &warnings);
    if (!t) {
      fail(mission_node_, NodeKind::trf, b.trf_path, EdgeKind::mission_to_trf, "load.trf_invalid", t.error());
      return;
    }
    for (auto& w : warnings) warn(b.trf_path, std::move(w));
    const std::uint32_t trf_node = graph_.node(NodeKind::trf, b.trf_path);
    edge(mission_node_, trf_node, EdgeKind::mission_to_trf);
    const auto names = t->names();
    b.trf = std::move(*t);
    for (std::size_t i = 0; i < names.size(); ++i) {
      TrfPrototype tp;
      tp.name = names[i];
      const auto row = static_cast<std::int32_t>(i);
      if (!tp.name.empty()) {
        auto found = resolver_.lookup_key(tp.name);
        tp.resolved = !found.failure;
        tp.geometric = found.geometric;
        tp.registry_entry = found.registry_entry;
        if (found.failure) {
          Diagnostic d = std::move(*found.failure);
          d.field = fmt::format("entries[{}]", i);
          d.message = fmt::format("{} -> {}: {}: TRF name '{}': {} ({})", head_, to_string(EdgeKind::trf_to_prototype),
                                  b.trf_path, tp.name, d.message, d.code);
          d.code = "load.trf_prototype";
          if (profile_ == core::Profile::strict) {
            graph_.fail(Edge{trf_node, graph_.node(NodeKind::prototype, "objects.rlb", tp.name),
                             EdgeKind::trf_to_prototype, -1, -1, row, std::nullopt},
                        std::move(d));
          } else {
            d.severity = core::Severity::warning;
            graph_.warnings.push_back(std::move(d));
          }
        } else {
          edge(trf_node, graph_.node(NodeKind::prototype, "objects.rlb", tp.name), EdgeKind::trf_to_prototype, row);
        }
      }
      b.trf_prototypes.push_back(std::move(tp));
    }
  }

  ArchiveRepository& repo_;
  PrototypeResolver& resolver_;
  std::string mission_;
  std::uint32_t mission_node_;
  DependencyGraph& graph_;
  core::Profile profile_;
  std::map<std::string, std::shared_ptr<const iron3d::Varset>> varsets_;  // by upper-case game path
  std::string head_;
  std::int32_t row_ = -1;
};

}  // namespace

std::vector<ScriptBundle> load_script_bundles(ArchiveRepository& repo, PrototypeResolver& resolver,
                                              const iron3d::Tma& tma, std::string_view mission_label,
                                              std::uint32_t mission_node, DependencyGraph& graph,
                                              core::Profile profile) {
  BundleLoader loader(repo, resolver, mission_label, mission_node, graph, profile);
  std::vector<ScriptBundle> out;
  for (std::size_t ci = 0; ci < tma.clans.size(); ++ci)
    if (auto b = loader.load(tma.clans[ci], ci)) out.push_back(std::move(*b));
  return out;
}

}  // namespace sortie::assets
