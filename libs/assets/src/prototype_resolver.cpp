// Placed objects to prototypes (spec §7.3; seed 000): a direct key or a unit DAT's component
// keys -> objects.rlb entry with its parent chain expanded -> the effective mesh; the visual
// chain below the mesh is visual_chain.cpp's. Every reference becomes an edge of the graph.
#include "sortie/assets/prototype_resolver.hpp"

#include <fmt/format.h>

#include <unordered_map>
#include <variant>

#include "resolver_internal.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::assets {

namespace detail {

Failure failure_from(const core::Diagnostic& d, std::string code, std::string what, std::string archive,
                     std::string entry) {
  Failure f{std::move(code), std::move(what), std::move(archive), std::move(entry), d.expected, d.found};
  if (!d.message.empty()) f.what += ": " + d.to_string();
  return f;
}

core::Result<std::shared_ptr<const MountedArchive>> open_named_archive(ArchiveRepository& repo, std::string_view name,
                                                                       PathPolicy policy) {
  SORTIE_TRY(auto path, normalize_path(clean_legacy_name(name), policy));
  return repo.open(path);
}

std::string Walk::chain(std::string_view tail) const {
  if (placed_index < 0) return fmt::format("{}: {}", mission, tail);  // environment WEAR of the map
  return fmt::format("{}: objects[{}] '{}' -> {}", mission, placed_index, placed_name, tail);
}

void Walk::fail(std::uint32_t from, NodeKind to_kind, EdgeKind kind, const Failure& f, std::string_view via,
                std::int32_t component, std::int32_t row) {
  const std::uint32_t to = graph.node(to_kind, f.archive, f.entry);
  core::Diagnostic d = core::Diagnostic::error(f.code, chain(join_via(via, f.what)));
  d.file = f.archive;
  d.field = placed_index >= 0 ? fmt::format("objects[{}]", placed_index) : field;
  d.expected = f.expected;
  d.found = f.found.empty() ? std::string(to_string(kind)) : f.found;
  Edge e{from, to, kind, placed_index, component, row, std::nullopt};
  graph.fail(e, std::move(d));
}

void Walk::edge(std::uint32_t from, std::uint32_t to, EdgeKind kind, std::int32_t component, std::int32_t row) {
  graph.add_edge(Edge{from, to, kind, placed_index, component, row, std::nullopt});
}

}  // namespace detail

namespace {

using detail::Failure;
using detail::failure_from;
using detail::join_via;
using detail::Walk;

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

struct PrototypeInfo {
  std::optional<Failure> failure;
  EdgeKind failed_edge = EdgeKind::object_to_prototype;
  std::string registry_entry;  // entry name in objects.rlb when resolved through the registry
  std::vector<std::pair<std::string, std::string>> parents;  // (child key, parent key) expansions
  bool geometric = false;
  std::string mesh_archive;
  std::string mesh_entry;
  std::string control_archive;  // the first existing `.ctl` ref (ResolvedComponent::control_*)
  std::string control_entry;
};

}  // namespace

std::string clean_legacy_name(std::string_view raw) {
  const auto nul = raw.find('\0');
  if (nul != std::string_view::npos) raw = raw.substr(0, nul);
  while (!raw.empty() && is_space(raw.front())) raw.remove_prefix(1);
  while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
  return std::string(raw);
}

std::vector<std::string> mesh_name_candidates(std::string_view raw) {
  const std::string n = clean_legacy_name(raw);
  std::vector<std::string> out{n};
  std::string second;
  if (core::iends_with_ascii(n, ".msh")) {
    const auto sep = n.find_last_of("/\\");
    const std::string base = sep == std::string::npos ? n : n.substr(sep + 1);
    const auto dot = base.rfind('.');
    second = base.substr(0, dot);
  } else {
    second = n + ".msh";
  }
  if (!second.empty() && !core::iequals_ascii(second, n)) out.push_back(std::move(second));
  return out;
}

struct PrototypeResolver::Impl {
  ArchiveRepository& repo;
  ResolverOptions options;
  detail::VisualChain chain;
  detail::EffectChain effects;
  StampedMap<std::shared_ptr<const PrototypeInfo>> prototypes;  // folded archive|key
  StampedMap<std::shared_ptr<const std::vector<iron3d::UnitComponentRef>>> unit_dats;
  StampedMap<Failure> unit_dat_failures;

  Impl(ArchiveRepository& r, ResolverOptions o)
      : repo(r), options(std::move(o)), chain(repo, options), effects(repo, options) {}

  iron3d::ReadOptions read_options(std::string file) const {
    return iron3d::ReadOptions{options.profile, std::move(file)};
  }

  // --- prototypes (§7.3) -------------------------------------------------------------------

  std::optional<std::size_t> find_candidate(const MountedArchive& a, std::string_view name) const {
    for (const auto& c : mesh_name_candidates(name))
      if (auto i = a.find(c)) return i;
    return std::nullopt;
  }

  // Expands the registry refs of `key` (with parents) into `out`. Returns a failure on error.
  std::optional<Failure> expand_registry(const MountedArchive& registry, std::string_view key, int depth,
                                         std::vector<std::string>& stack, PrototypeInfo& info,
                                         std::vector<iron3d::ObjectRefView>& out) {
    if (depth > options.max_parent_depth)
      return Failure{"load.prototype_depth",
                     fmt::format("prototype parent chain deeper than {}", options.max_parent_depth),
                     registry.path().path,
                     std::string(key),
                     fmt::format("<= {} levels", options.max_parent_depth),
                     fmt::format("'{}' at level {}", key, depth)};
    for (const auto& s : stack)
      if (core::iequals_ascii(s, key))
        return Failure{"load.prototype_cycle",    fmt::format("prototype inheritance cycle through '{}'", key),
                       registry.path().path,      std::string(key),
                       "an acyclic parent chain", fmt::format("'{}' twice", key)};
    const auto index = find_candidate(registry, key);
    if (!index)
      return Failure{
          "load.parent_missing", fmt::format("{}: parent prototype '{}' not found", registry.path().path, key),
          registry.path().path,  std::string(key),
          "a registry entry",    "none"};
    auto payload = registry.payload(*index);
    if (!payload)
      return failure_from(payload.error(), "load.prototype_invalid",
                          fmt::format("{}: entry '{}' does not decode", registry.path().path, key),
                          registry.path().path, registry.name(*index));
    auto refs = iron3d::read_object_refs(*payload, read_options(registry.path().path + ":" + registry.name(*index)));
    if (!refs)
      return failure_from(refs.error(), "load.prototype_invalid",
                          fmt::format("{}: entry '{}' is not a valid ObjectRef table", registry.path().path, key),
                          registry.path().path, registry.name(*index));
    stack.emplace_back(key);
    for (auto& ref : iron3d::object_ref_views(*refs)) {
      if (iron3d::is_parent_ref(ref)) {
        info.parents.emplace_back(std::string(key), ref.resource);
        if (auto f = expand_registry(registry, ref.resource, depth + 1, stack, info, out)) return f;
      } else {
        out.push_back(std::move(ref));
      }
    }
    stack.pop_back();
    return std::nullopt;
  }

  std::shared_ptr<const PrototypeInfo> prototype(std::string_view archive_name, std::string_view raw_key) {
    const std::string key = clean_legacy_name(raw_key);
    const std::string archive = clean_legacy_name(archive_name);
    const std::string cache_key = detail::entry_key(archive, key);
    if (auto it = prototypes.find(cache_key); it != prototypes.end()) return it->second;
    auto info = std::make_shared<PrototypeInfo>();
    resolve_prototype(archive, key, *info);
    prototypes.emplace(cache_key, info);
    return info;
  }

  void resolve_prototype(const std::string& archive, const std::string& key, PrototypeInfo& info) {
    if (key.empty()) {
      info.failure = Failure{"load.component_empty", "empty prototype key", archive, key, "a prototype key", "''"};
      return;
    }
    auto path = normalize_path(archive, PathPolicy::strict_legacy);
    if (!path) {
      info.failure =
          failure_from(path.error(), "load.archive_path", fmt::format("bad archive name '{}'", archive), archive, key);
      return;
    }
    if (core::iequals_ascii(path->path, options.objects_rlb)) {
      auto registry = repo.open(*path);
      if (!registry && registry.error().code != "asset.archive_missing") {
        info.failure = failure_from(registry.error(), "load.archive_invalid",
                                    fmt::format("{}: archive does not open", path->path), path->path, "");
        return;
      }
      if (registry) {
        if (auto entry = find_candidate(**registry, key)) {
          info.registry_entry = (*registry)->name(*entry);
          std::vector<iron3d::ObjectRefView> effective;
          std::vector<std::string> stack;
          if (auto f = expand_registry(**registry, key, 0, stack, info, effective)) {
            info.failure = std::move(f);
            info.failed_edge = info.failure->code == "load.parent_missing" ||
                                       info.failure->code == "load.prototype_cycle" ||
                                       info.failure->code == "load.prototype_depth"
                                   ? EdgeKind::prototype_to_parent
                                   : EdgeKind::object_to_prototype;
            return;
          }
          pick_mesh(effective, info);
          pick_control(effective, info);
          return;
        }
      }
    }
    // Fall-through: the key names a model directly in `archive`.
    auto a = repo.open(*path);
    if (!a) {
      info.failure = a.error().code == "asset.archive_missing"
                         ? Failure{"load.prototype_missing",
                                   fmt::format("{}: prototype '{}' not found (archive missing)", path->path, key),
                                   path->path,
                                   key,
                                   "an existing archive",
                                   "no such file"}
                         : failure_from(a.error(), "load.archive_invalid",
                                        fmt::format("{}: archive does not open", path->path), path->path, key);
      return;
    }
    if (auto entry = find_candidate(**a, key)) {
      info.geometric = true;
      info.mesh_archive = path->path;
      info.mesh_entry = (*a)->name(*entry);
      return;
    }
    info.failure = Failure{"load.prototype_missing",
                           fmt::format("{}: entry '{}' not found", path->path, key),
                           path->path,
                           key,
                           fmt::format("an entry named {}", fmt::join(mesh_name_candidates(key), " or ")),
                           "none"};
  }

  void pick_mesh(const std::vector<iron3d::ObjectRefView>& refs, PrototypeInfo& info) {
    std::vector<std::string> tried;
    for (const auto& ref : refs) {
      if (!iron3d::is_mesh_ref(ref)) continue;
      tried.push_back(ref.archive + ":" + ref.resource);
      auto a = detail::open_named_archive(repo, ref.archive, PathPolicy::strict_legacy);
      if (!a) continue;  // a missing archive just makes this candidate absent
      if (auto entry = find_candidate(**a, ref.resource)) {
        info.geometric = true;
        info.mesh_archive = (*a)->path().path;
        info.mesh_entry = (*a)->name(*entry);
        return;
      }
    }
    if (tried.empty()) return;  // non-geometric prototype (valid)
    info.failure = Failure{"load.mesh_missing",
                           fmt::format("explicit mesh reference missing: {}", fmt::join(tried, ", ")),
                           tried.front().substr(0, tried.front().find(':')),
                           tried.front().substr(tried.front().find(':') + 1),
                           "an existing archive entry",
                           "none of the referenced meshes"};
    info.failed_edge = EdgeKind::prototype_to_mesh;
  }

  // The first `.ctl` ref whose entry exists; an absent one is no control resource (not an error:
  // the pose is the MSH's static one).
  void pick_control(const std::vector<iron3d::ObjectRefView>& refs, PrototypeInfo& info) {
    for (const auto& ref : refs) {
      if (!core::iends_with_ascii(ref.resource, ".ctl")) continue;
      auto a = detail::open_named_archive(repo, ref.archive, PathPolicy::strict_legacy);
      if (!a) continue;
      if (auto entry = (*a)->find(ref.resource)) {
        info.control_archive = (*a)->path().path;
        info.control_entry = (*a)->name(*entry);
        return;
      }
    }
  }

  // --- unit DAT --------------------------------------------------------------------------------

  // Returns the components or a failure.
  std::variant<std::shared_ptr<const std::vector<iron3d::UnitComponentRef>>, Failure> unit_dat(
      const std::string& raw_name) {
    const std::string name = clean_legacy_name(raw_name);
    const std::string cache_key = core::ascii_upper(name);
    if (auto it = unit_dats.find(cache_key); it != unit_dats.end()) return it->second;
    if (auto it = unit_dat_failures.find(cache_key); it != unit_dat_failures.end()) return it->second;
    auto fail_with = [&](Failure f) {
      unit_dat_failures.emplace(cache_key, f);
      return f;
    };
    auto path = normalize_path(name, PathPolicy::strict_legacy);
    if (!path)
      return fail_with(
          failure_from(path.error(), "load.unit_dat_path", fmt::format("bad unit DAT path '{}'", name), name, ""));
    auto bytes = repo.vfs().read(*path);
    if (!bytes) {
      if (bytes.error().code == "vfs.not_found")
        return fail_with(Failure{"load.unit_dat_missing", fmt::format("missing unit DAT '{}'", path->path), path->path,
                                 "", "an existing file", "no such file"});
      return fail_with(failure_from(bytes.error(), "load.unit_dat_missing",
                                    fmt::format("cannot read unit DAT '{}'", path->path), path->path, ""));
    }
    auto dat = iron3d::read_unit_dat(*bytes, read_options(path->path));
    if (!dat)
      return fail_with(failure_from(dat.error(), "load.unit_dat_invalid",
                                    fmt::format("invalid unit DAT '{}'", path->path), path->path, ""));
    auto comps = std::make_shared<const std::vector<iron3d::UnitComponentRef>>(iron3d::unit_dat_components(*dat));
    unit_dats.emplace(cache_key, comps);
    return comps;
  }
};

PrototypeResolver::PrototypeResolver(ArchiveRepository& repository, ResolverOptions options)
    : impl_(std::make_unique<Impl>(repository, std::move(options))) {}
PrototypeResolver::~PrototypeResolver() = default;

CacheTrim PrototypeResolver::trim() {
  Impl& m = *impl_;
  const auto size = [&] {
    return m.prototypes.size() + m.unit_dats.size() + m.unit_dat_failures.size() + m.chain.size() + m.effects.size();
  };
  CacheTrim t;
  t.cache = "resolver";
  t.entries_before = size();
  const auto unheld = [](const auto&) { return false; };
  m.prototypes.trim(unheld);
  m.unit_dats.trim(unheld);
  m.unit_dat_failures.trim(unheld);
  m.chain.trim();
  m.effects.trim();
  t.entries_after = size();
  return t;
}

std::vector<ResolvedObject> PrototypeResolver::resolve(std::string_view mission_label, std::uint32_t mission_node,
                                                       std::span<const PlacedObjectRequest> objects,
                                                       DependencyGraph& graph) {
  Impl& im = *impl_;
  std::vector<ResolvedObject> out;
  out.reserve(objects.size());
  GraphStatistics& st = graph.stats;
  for (const auto& placed : objects) {
    Walk w{graph, std::string(mission_label), placed.index, clean_legacy_name(placed.resource_name), {}};
    ResolvedObject ro;
    ro.placed_index = placed.index;
    ro.resource_name = w.placed_name;
    ++st.placed_objects;
    const std::uint32_t obj_node =
        graph.node(NodeKind::placed_object, std::string(mission_label), fmt::format("objects[{}]", placed.index));
    w.edge(mission_node, obj_node, EdgeKind::mission_to_object, -1);

    // Expand to (archive, key, component index, from node, edge kind).
    struct Request {
      std::string archive;
      std::string key;
      std::int32_t component;
      std::uint32_t from;
      EdgeKind kind;
      std::string via;
    };
    std::vector<Request> requests;
    const std::string& rn = w.placed_name;
    const auto dot = rn.rfind('.');
    if (dot != std::string::npos && core::iequals_ascii(std::string_view(rn).substr(dot + 1), "dat")) {
      ro.via_unit_dat = true;
      ++st.unit_references;
      auto result = im.unit_dat(rn);
      if (auto* f = std::get_if<Failure>(&result)) {
        w.fail(obj_node, NodeKind::unit_dat, EdgeKind::object_to_unit_dat, *f, "", -1);
        out.push_back(std::move(ro));
        continue;
      }
      const auto& comps = *std::get<0>(result);
      const std::uint32_t dat_node =
          graph.node(NodeKind::unit_dat, normalize_path(rn).value_or(GamePath{rn, rn, rn}).path);
      w.edge(obj_node, dat_node, EdgeKind::object_to_unit_dat, -1);
      st.unit_components += comps.size();
      for (const auto& c : comps)
        requests.push_back({c.archive, c.key, static_cast<std::int32_t>(c.index), dat_node,
                            EdgeKind::unit_dat_to_component,
                            fmt::format("component[{}] '{}'", c.index, clean_legacy_name(c.key))});
    } else {
      ++st.direct_references;
      requests.push_back({im.options.objects_rlb, rn, -1, obj_node, EdgeKind::object_to_prototype, ""});
    }

    for (const auto& rq : requests) {
      ++st.prototype_requests;
      ResolvedComponent rc;
      rc.key = clean_legacy_name(rq.key);
      rc.unit_component_index = rq.component;
      const auto info = im.prototype(rq.archive, rq.key);
      const std::string proto_archive = normalize_path(clean_legacy_name(rq.archive), PathPolicy::host_compatible)
                                            .value_or(GamePath{rq.archive, rq.archive, rq.archive})
                                            .path;
      rc.archive = proto_archive;
      const std::uint32_t proto_node = graph.node(NodeKind::prototype, proto_archive, rc.key);
      // A direct key is the placed object's own name, already in the chain's head.
      const std::string& via = rq.via;
      if (info->failure && info->failed_edge != EdgeKind::prototype_to_mesh &&
          info->failed_edge != EdgeKind::prototype_to_parent) {
        w.fail(rq.from, NodeKind::prototype, rq.kind, *info->failure, rq.via, rq.component);
        ro.components.push_back(std::move(rc));
        continue;
      }
      w.edge(rq.from, proto_node, rq.kind, rq.component);
      for (const auto& [child, parent] : info->parents)
        w.edge(graph.node(NodeKind::prototype, im.options.objects_rlb, child),
               graph.node(NodeKind::prototype, im.options.objects_rlb, parent), EdgeKind::prototype_to_parent,
               rq.component);
      if (info->failure) {
        w.fail(proto_node, info->failed_edge == EdgeKind::prototype_to_mesh ? NodeKind::mesh : NodeKind::prototype,
               info->failed_edge, *info->failure, via, rq.component);
        ro.components.push_back(std::move(rc));
        continue;
      }
      rc.control_archive = info->control_archive;
      rc.control_entry = info->control_entry;
      if (!info->geometric) {
        ++st.non_geometric;
        ro.components.push_back(std::move(rc));
        continue;
      }
      rc.geometric = true;
      rc.mesh_archive = info->mesh_archive;
      rc.mesh_entry = info->mesh_entry;
      ++st.mesh_requests;
      const std::uint32_t mesh_node = graph.node(NodeKind::mesh, rc.mesh_archive, rc.mesh_entry);
      const auto visual = im.chain.mesh_visual(rc.mesh_archive, rc.mesh_entry);
      const std::string mesh_via = join_via(via, fmt::format("{}:{}", rc.mesh_archive, rc.mesh_entry));
      if (visual->mesh_failure) {
        w.fail(proto_node, NodeKind::mesh, EdgeKind::prototype_to_mesh, *visual->mesh_failure, via, rq.component);
        ro.components.push_back(std::move(rc));
        continue;
      }
      w.edge(proto_node, mesh_node, EdgeKind::prototype_to_mesh, rq.component);
      ++st.wear_requests;
      if (visual->wear_failure) {
        w.fail(mesh_node, NodeKind::wear, EdgeKind::mesh_to_wear, *visual->wear_failure, mesh_via, rq.component);
        ro.components.push_back(std::move(rc));
        continue;
      }
      rc.wear_entry = visual->wear_entry;
      const std::uint32_t wear_node = graph.node(NodeKind::wear, rc.mesh_archive, rc.wear_entry);
      w.edge(mesh_node, wear_node, EdgeKind::mesh_to_wear, rq.component);
      const std::string wear_via = join_via(mesh_via, rc.wear_entry);
      im.chain.wear_rows(*visual, wear_node, wear_via, rq.component, w, rc, st);
      ro.components.push_back(std::move(rc));
    }
    out.push_back(std::move(ro));
  }
  return out;
}

PrototypeResolver::KeyLookup PrototypeResolver::lookup_key(std::string_view key) {
  const auto info = impl_->prototype(impl_->options.objects_rlb, key);
  KeyLookup out;
  out.geometric = info->geometric;
  out.registry_entry = info->registry_entry;
  if (info->failure) {
    const Failure& f = *info->failure;
    core::Diagnostic d = core::Diagnostic::error(f.code, f.what);
    d.file = f.archive;
    d.expected = f.expected;
    d.found = f.found;
    out.failure = std::move(d);
  }
  return out;
}

ResolvedComponent PrototypeResolver::resolve_environment_wear(std::string_view label, core::ByteView wear_bytes,
                                                              DependencyGraph& graph, std::uint32_t from_node) {
  Impl& im = *impl_;
  Walk w{graph, std::string(label), -1, "environment", {}};
  ResolvedComponent rc;
  rc.key = std::string(label);
  const std::uint32_t wear_node = graph.node(NodeKind::wear, std::string(label));
  auto wear = iron3d::read_wear(wear_bytes, im.read_options(std::string(label)));
  if (!wear) {
    w.fail(from_node, NodeKind::wear, EdgeKind::mesh_to_wear,
           failure_from(wear.error(), "load.wear_invalid", fmt::format("{}: invalid WEAR table", label),
                        std::string(label), ""),
           "", -1);
    return rc;
  }
  w.edge(from_node, wear_node, EdgeKind::mesh_to_wear, -1);
  detail::MeshVisual v;
  v.materials = iron3d::wear_material_names(*wear);
  v.lightmaps = iron3d::wear_lightmap_names(*wear);
  im.chain.wear_rows(v, wear_node, "", -1, w, rc, graph.stats);
  return rc;
}

std::optional<ResolvedEffect> PrototypeResolver::resolve_effect(std::string_view mission_label,
                                                                const EffectRequest& request, DependencyGraph& graph) {
  Impl& im = *impl_;
  const EffectRef ref = EffectRef::parse(request.name);
  Walk w{graph, std::string(mission_label), -1, "effect", request.field};
  ++graph.stats.effect_requests;
  const auto check = im.effects.effect(ref);
  if (check->failure) {
    if (im.options.profile == core::Profile::compatible) {
      // --compatible: the mission loads without it (the weather falls back to the seed's lightning,
      // a script naming it stops at the call).
      const Failure& f = *check->failure;
      core::Diagnostic d = core::Diagnostic::warning(f.code, w.chain(join_via(request.via, f.what)));
      d.file = f.archive;
      d.field = request.field;
      d.expected = f.expected;
      d.found = f.found;
      graph.warnings.push_back(std::move(d));
    } else {
      w.fail(request.from_node, NodeKind::effect, request.edge, *check->failure, request.via, -1);
    }
    return std::nullopt;
  }
  const PreparedEffect& e = *check->effect;
  const std::uint32_t node = graph.node(NodeKind::effect, e.archive, e.entry);
  w.edge(request.from_node, node, request.edge, -1);
  const std::string via = join_via(request.via, e.label());
  for (const core::Diagnostic& d : e.warnings) {
    core::Diagnostic c = d;
    c.message = w.chain(join_via(request.via, d.message));
    graph.warn_once(fmt::format("{}|{}", ref.key(), d.field), std::move(c));
  }
  ResolvedEffect out{ref, e.archive, e.entry, check->effect, {}};
  bool ok = true;
  for (const auto& c : e.commands) {
    if (!c.executed() || c.opcode != 3 || c.reference_name.empty()) continue;
    auto entry = im.chain.material_row(node, EdgeKind::effect_to_material, c.index, c.reference_name,
                                       join_via(via, fmt::format("commands[{}] '{}'", c.index, c.reference_name)), -1,
                                       w, graph.stats);
    ok = ok && entry.has_value();
    out.materials.push_back(entry.value_or(std::string()));
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace sortie::assets
