// Lint: engine-compatible checks and the strict gate (spec/fomap.md §8).
#include "sortie/fomap/lint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory_resource>
#include <unordered_map>
#include <unordered_set>

#include "sortie/fomap/multihex.hpp"
#include "sortie/fomap/references.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

using core::Severity;

struct Ctx {
  const MapContainer& c;
  const Project& project;
  const LintOptions& options;
  LintReport& report;

  // compatible-mode severity `compat`, strict-mode severity `strict`
  void add(std::string_view rule, std::string_view check, Severity compat, Severity strict, std::uint32_t line,
           std::string map, std::string placement, std::string message, std::string fix) {
    Finding f;
    f.rule = std::string(rule);
    f.check = std::string(check);
    f.severity = options.strict ? strict : compat;
    f.file = c.path();
    f.line = line;
    f.map = std::move(map);
    f.placement = std::move(placement);
    f.message = std::move(message);
    f.fix = std::move(fix);
    report.findings.push_back(std::move(f));
  }
};

std::string label_of(const Placement& p) {
  return fmt::format("{} $Id={} $Proto={}", to_string(p.kind),
                     p.has_id ? std::string(p.id_text) : std::string("<missing>"),
                     p.has_proto ? std::string(p.proto) : std::string("<missing>"));
}

// The placement text of a finding, built only when a finding is reported.
struct LazyLabel {
  const Placement* p = nullptr;
  operator std::string() const { return p ? label_of(*p) : std::string(); }  // NOLINT(google-explicit-constructor)
};

// A single value from its text (no text: the zero value); nullopt when the property `info` is
// unknown (nullptr), not single-valued or the text does not parse.
std::optional<ScalarValue> single_value(const Ctx& x, const PropertyInfo* info, std::optional<std::string_view> text) {
  if (!info || info->type.container != Container::single) return std::nullopt;
  if (!text) return ScalarValue{};
  auto v = parse_single_value(info->type, *text, x.project.properties);
  if (!v) return std::nullopt;
  return std::move(*v);
}

std::optional<std::string_view> proto_text(const Proto* proto, std::string_view name) {
  if (!proto) return std::nullopt;
  auto it = proto->resolved.find(name);
  if (it == proto->resolved.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::int64_t first_int(const std::optional<ScalarValue>& v, std::int64_t fallback = 0) {
  if (!v) return fallback;
  return v->ints[0];
}

// The properties check_map reads the effective values of, looked up once per map.
struct EffectiveProps {
  explicit EffectiveProps(const PropertyCatalog& cat)
      : ownership(cat.find("Item", "Ownership")),
        is_static(cat.find("Item", "Static")),
        critter_id(cat.find("Item", "CritterId")),
        container_id(cat.find("Item", "ContainerId")),
        item_hex(cat.find("Item", "Hex")),
        critter_hex(cat.find("Critter", "Hex")) {}
  const PropertyInfo* ownership;
  const PropertyInfo* is_static;
  const PropertyInfo* critter_id;
  const PropertyInfo* container_id;
  const PropertyInfo* item_hex;
  const PropertyInfo* critter_hex;
};

// Effective single value of a property (placement, else proto, else zero); nullopt when the
// property (`info`, the catalog's entry for `name`) is unknown, not single-valued or does not parse.
std::optional<ScalarValue> effective_value(const Ctx& x, const Placement& p, const Proto* proto, std::string_view name,
                                           const PropertyInfo* info) {
  if (const ConfigEntry* e = x.c.section(p.section).find(name)) return single_value(x, info, e->value);
  return single_value(x, info, proto_text(proto, name));
}

void check_config(Ctx& x) {
  const auto& cfg = x.c.config();
  const auto& def = cfg.sections()[0];
  if (!def.entries.empty()) {
    for (const auto& e : def.entries)
      x.add(rule::kClosedSectionSet, "data-before-anchor", Severity::warning, Severity::error, e.line, "", "",
            fmt::format("key '{}' before the first section header is ignored by the engine", e.key),
            "move the key into [ProtoMap] or delete it");
  }
  for (const auto& s : cfg.sections()) {
    for (std::uint32_t line : s.ignored_lines)
      x.add(rule::kConfigSyntax, "ignored-line", Severity::warning, Severity::error, line, "", "",
            "line is not a `key = value` assignment nor a valid [Section] header; the engine ignores it",
            "write it as `key = value`, a `# comment`, or delete it");
    for (const auto& e : s.entries)
      if (e.assignments > 1 && !e.appended)
        x.add(
            rule::kConfigSyntax, "key-reassigned", Severity::warning, Severity::error, e.line, "", "",
            fmt::format("key '{}' is assigned {} times in one section; the last assignment wins", e.key, e.assignments),
            "keep one assignment per key");
  }
  if (cfg.facts().dropped_continuation_line != 0)
    x.add(rule::kConfigSyntax, "dangling-continuation", Severity::warning, Severity::error,
          cfg.facts().dropped_continuation_line, "", "",
          "the last line ends with ` \\` and no newline follows: the engine drops it",
          "remove the trailing backslash or end the file with a newline");
}

void check_structure(Ctx& x) {
  for (const auto& e : x.c.structure_errors()) {
    std::string fix;
    if (e.code == "fomap.structure.top_level")
      fix =
          "use [ProtoMap] for the map header and [$Name/Critter] / [$Name/Item] for placements (legacy files: `sortie "
          "fomap migrate`)";
    else if (e.code == "fomap.structure.nested_type")
      fix = "use [$Name/Critter] or [$Name/Item]";
    else if (e.code == "fomap.structure.no_anchor_before")
      fix = "move the section after its [ProtoMap] anchor";
    else if (e.code == "fomap.structure.undeclared_owner")
      fix = "address a declared map ([$Name/...] or [<declared $Name>/...])";
    else
      fix = "add a [ProtoMap] anchor";
    x.add(rule::kClosedSectionSet, e.code.substr(std::string_view("fomap.structure.").size()), Severity::error,
          Severity::error, e.line, "", "", e.message + "; the engine refuses every map of this file", fix);
  }
}

void check_identity(Ctx& x) {
  const auto& anchors = x.c.anchors();
  const bool multi = anchors.size() > 1;
  std::unordered_map<std::string, std::uint32_t> seen;
  for (const auto& a : anchors) {
    if (a.named && (a.name.find('/') != std::string::npos || a.name.find('$') != std::string::npos || a.name.empty()))
      x.add(rule::kMapIdentity, "name-invalid", Severity::error, Severity::error, a.line, a.name, "",
            fmt::format("map $Name '{}' is empty or contains '/' or '$'", a.name), "use a plain identifier as $Name");
    if (multi && !a.named)
      x.add(rule::kMapIdentity, "unnamed-anchor", Severity::warning, Severity::error, a.line, a.name, "",
            fmt::format("anchor without $Name in a multi-map file resolves to the file stem '{}'", a.name),
            "give every [ProtoMap] of a multi-map file an explicit unique $Name");
    auto [it, inserted] = seen.emplace(a.name, a.line);
    if (!inserted)
      x.add(rule::kMapIdentity, "duplicate-name", a.named ? Severity::warning : Severity::error, Severity::error,
            a.line, a.name, "",
            fmt::format("map name '{}' is declared again (first anchor at line {}); the loader merges the placements "
                        "and the proto baker fails",
                        a.name, it->second),
            "give each anchor a unique $Name");
  }
  for (const auto& a : anchors) {
    const ConfigSection& s = x.c.section(a.section);
    for (const auto& e : s.entries) {
      if (e.key.empty() || e.key.front() != '$') continue;
      if (e.key == "$Name") {
        if (e.value.find('#') != std::string_view::npos || e.assignments > 1)
          x.add(rule::kMapperRoundTrip, "name-line", Severity::warning, Severity::error, e.line, a.name, "",
                "the $Name line is not plain (several assignments or a '#'): the Mapper splice reads the owner "
                "differently",
                "write exactly one `$Name = <map>` line");
        continue;
      }
      if (e.key.substr(0, 5) == "$Text") continue;
      if (e.key == "$Parent") {
        x.add(rule::kMapperRoundTrip, "anchor-parent", Severity::warning, Severity::error, e.line, a.name, "",
              "$Parent on a map anchor is resolved by the proto baker but not by the Mapper; a Mapper save drops "
              "inherited values",
              "write the map properties explicitly in [ProtoMap]");
        continue;
      }
      x.add(rule::kMapperRoundTrip, "unknown-directive", Severity::warning, Severity::error, e.line, a.name, "",
            fmt::format("directive '{}' is ignored by the engine and dropped by a Mapper save", e.key), "delete it");
    }
  }
}

struct MapSize {
  bool known = false;
  std::int64_t w = 0;
  std::int64_t h = 0;
};

// `"x y" "x y" ...` with plain int16 fields; counts hexes outside `size` when known.
bool scan_mesh(std::string_view text, const MapSize& size, std::size_t& outside) {
  std::vector<std::int16_t> hexes;
  if (!read_int16_pairs(text, hexes)) return false;
  if (size.known)
    for (std::size_t i = 0; i + 1 < hexes.size(); i += 2)
      if (hexes[i] < 0 || hexes[i + 1] < 0 || hexes[i] >= size.w || hexes[i + 1] >= size.h) ++outside;
  return true;
}

// Checks one key of a placement or anchor; returns the property it names (null when unknown).
const PropertyInfo* check_property_entry(Ctx& x, std::string_view entity, const ConfigEntry& e, const std::string& map,
                                         const LazyLabel& label, const MapSize& size) {
  const PropertyInfo* info = x.project.properties.find(entity, e.key);
  if (!info) {
    const bool known_project = x.project.properties.has_project_declarations();
    x.add(rule::kPropertyOverrides, "unknown-property", known_project ? Severity::error : Severity::warning,
          Severity::error, e.line, map, label, fmt::format("{} has no property '{}'", entity, e.key),
          known_project ? "fix the property name or declare it in the project metadata"
                        : "fix the name, or pass --protos with the project's property declarations");
    return info;
  }
  if (!info->authorable) {
    x.add(rule::kPropertyOverrides, "not-authorable", Severity::error, Severity::error, e.line, map, label,
          fmt::format("{}.{} is {} and cannot be set from a map", entity, info->name, info->excluded_reason),
          "delete the key");
    return info;
  }
  // Fast path for the bulk of real maps: a well-formed MultihexMesh is scanned without
  // materializing its (often thousands of) elements; anything unusual takes the full parser.
  if (info->name == "MultihexMesh" && entity == "Item") {
    std::size_t outside = 0;
    if (scan_mesh(e.value, size, outside)) {
      if (outside)
        x.add(rule::kBounds, "mesh-out-of-bounds", Severity::warning, Severity::error, e.line, map, label,
              fmt::format("{} MultihexMesh hex(es) lie outside Size {} {}", outside, size.w, size.h),
              "remove the mesh hexes outside the map");
      return info;
    }
  }
  const bool mesh_property = info->name == "MultihexMesh" && entity == "Item";
  if (mesh_property && ends_in_open_quote(e.value)) {
    // The engine reads the open pair up to the end of the value, so a line cut in the middle
    // of a pair (`"86 1` for `"86 14"`) loads as another hex, and the Mapper may then move the
    // item to it.
    x.add(rule::kMultihexMesh, "mesh-unterminated-quote", Severity::warning, Severity::error, e.line, map, label,
          "MultihexMesh ends inside a quoted pair (a cut line?): the engine reads the open pair as a hex",
          "close the last pair's quote and check its numbers against the intended mesh");
    return info;
  }
  if (!mesh_property) {
    auto ok = validate_value(info->type, e.value, x.project.properties);
    if (ok) return info;
  }
  auto v = parse_value(info->type, e.value, x.project.properties);
  if (!v) {
    const bool mesh = info->name == "MultihexMesh";
    // Without project metadata an engine enum value may be a project extension (CritterItemSlot Secondary).
    const bool maybe_project_value =
        v.error().code == "fomap.value.enum" && !x.project.properties.has_project_declarations();
    x.add(mesh ? rule::kMultihexMesh : rule::kPropertyOverrides, mesh ? "mesh-syntax" : "bad-value",
          maybe_project_value ? Severity::warning : Severity::error, Severity::error, e.line, map, label,
          fmt::format("{}.{} ({}): {} (expected {}, found '{}')", entity, info->name, info->type.text,
                      v.error().message, v.error().expected, v.error().found),
          mesh ? "write each mesh hex as one quoted pair: MultihexMesh = \"x y\" \"x y\""
               : "write a value of type " + info->type.text);
    return info;
  }
  if (size.known && info->name == "MultihexMesh" && entity == "Item") {
    std::size_t outside = 0;
    for (const auto& h : v->elements)
      if (h.ints[0] < 0 || h.ints[1] < 0 || h.ints[0] >= size.w || h.ints[1] >= size.h) ++outside;
    if (outside)
      x.add(rule::kBounds, "mesh-out-of-bounds", Severity::warning, Severity::error, e.line, map, label,
            fmt::format("{} MultihexMesh hex(es) lie outside Size {} {}", outside, size.w, size.h),
            "remove the mesh hexes outside the map");
  }
  return info;
}

// An old and a new name of one property in one section (`CritId` and `CritterId`): the engine
// applies keys in byte order, so the key that sorts last silently wins (§5.1).
void check_aliases(Ctx& x, std::string_view entity, const ConfigSection& s, const std::string& map,
                   const LazyLabel& label) {
  std::vector<std::pair<const PropertyInfo*, const ConfigEntry*>> seen;
  for (const auto& e : s.entries) {
    if (e.key.empty() || e.key.front() == '$' || e.key.front() == '_') continue;
    const PropertyInfo* info = x.project.properties.find(entity, e.key);
    if (!info) continue;
    auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& q) { return q.first == info; });
    if (it == seen.end()) {
      seen.emplace_back(info, &e);
      continue;
    }
    const ConfigEntry& winner = e.key > it->second->key ? e : *it->second;
    const ConfigEntry& loser = &winner == &e ? *it->second : e;
    x.add(rule::kPropertyOverrides, "property-alias-conflict", Severity::warning, Severity::error, loser.line, map,
          label,
          fmt::format("`{}` and `{}` both set {}.{}; the engine keeps `{} = {}` (the key that sorts last)",
                      it->second->key, e.key, entity, info->name, winner.key, winner.value),
          fmt::format("delete `{}`", loser.key));
    it->second = &winner;
  }
}

MapSize check_anchor(Ctx& x, const MapDefinition& m) {
  MapSize size;
  for (std::size_t ai : m.anchors) {
    const MapAnchor& a = x.c.anchors()[ai];
    const ConfigSection& s = x.c.section(a.section);
    bool migrated = false;
    for (const auto& e : s.entries) {
      if (e.key.empty() || e.key.front() == '$' || e.key.front() == '_') continue;
      if (const PropertyInfo* info = check_property_entry(x, "Map", e, m.name, LazyLabel{}, MapSize{});
          info && info->name != e.key)
        migrated = true;
      if (e.key == "Size" && !size.known) {
        if (const PropertyInfo* info = x.project.properties.find("Map", "Size")) {
          auto v = parse_value(info->type, e.value, x.project.properties);
          if (v && !v->elements.empty()) {
            size.known = true;
            size.w = v->elements[0].ints[0];
            size.h = v->elements[0].ints[1];
          }
        }
      }
    }
    if (migrated) check_aliases(x, "Map", s, m.name, LazyLabel{});
  }
  if (!size.known && !m.anchors.empty())
    x.add(rule::kBounds, "size-missing", Severity::warning, Severity::error, x.c.anchors()[m.anchors[0]].line, m.name,
          "", "[ProtoMap] has no valid Size; hex bounds cannot be checked and the map has no grid",
          "add `Size = <width> <height>`");
  return size;
}

// The per-map checks: ids and protos while the placements are indexed, then hexes, Mapper order
// and item ownership. The per-map tables get their nodes from one arena (freed at once when the
// checker goes).
class MapChecker {
 public:
  MapChecker(Ctx& x, const MapDefinition& m)
      : x_(x),
        m_(m),
        size_(check_anchor(x, m)),
        cat_(x.project.properties),
        props_(cat_),
        arena_((m.critters.size() + m.items.size()) * 160 + 1024),
        authored_(&arena_),
        critter_by_id_(&arena_),
        item_by_id_(&arena_),
        proto_cache_(&arena_),
        item_position_(&arena_),
        critter_protos_(m.critters.size(), nullptr),
        item_protos_(m.items.size(), nullptr) {
    const std::size_t placements = m.critters.size() + m.items.size();
    authored_.reserve(placements);
    critter_by_id_.reserve(m.critters.size());
    item_by_id_.reserve(m.items.size());
    proto_cache_.reserve(placements);
  }

  void run() {
    for (std::size_t i = 0; i < m_.critters.size(); ++i) index_placement(m_.critters[i], critter_protos_[i]);
    for (std::size_t i = 0; i < m_.items.size(); ++i) index_placement(m_.items[i], item_protos_[i]);
    for (std::size_t ci = 0; ci < m_.critters.size(); ++ci) {
      const Placement& p = m_.critters[ci];
      if (p.has_proto) check_hex(p, critter_protos_[ci], LazyLabel{&p});
    }
    check_critter_order();
    item_position_.reserve(m_.items.size());
    for (std::size_t i = 0; i < m_.items.size(); ++i)
      if (m_.items[i].has_proto) item_position_.emplace(m_.items[i].id, i);
    for (std::size_t i = 0; i < m_.items.size(); ++i)
      if (m_.items[i].has_proto) check_item(i);
  }

 private:
  struct ItemInfo {
    const Placement* p;
    std::int64_t ownership;
    bool is_static;
  };
  // The proto of a $Proto text, with its own Ownership / Static (what an item that does not
  // set them gets).
  struct CachedProto {
    std::string_view first;
    PlacementKind kind;
    const Proto* proto;
    std::int64_t ownership;
    bool is_static;
  };

  // Checks a placement's id, proto and keys, and records it in the id tables.
  void index_placement(const Placement& p, const Proto*& proto_out) {
    const LazyLabel label{&p};
    if (!p.has_proto) {
      x_.add(rule::kPrototypeResolution, "proto-missing", Severity::error, Severity::error, p.line, m_.name, label,
             "placement has no $Proto; the loader skips it and fails the map", "add `$Proto = <prototype name>`");
      return;
    }
    check_id(p, label);
    const CachedProto& cached = cached_proto(p);
    proto_out = cached.proto;
    if (x_.project.has_protos && !cached.proto)
      x_.add(rule::kPrototypeResolution, "proto-unknown", Severity::error, Severity::error, p.proto_line, m_.name,
             label, fmt::format("no {} prototype named '{}'", to_string(p.kind), p.proto),
             "fix $Proto or add the prototype");
    const ConfigSection& s = x_.c.section(p.section);
    check_keys(p, s, label);
    if (p.kind == PlacementKind::critter) {
      critter_by_id_.emplace(p.id, &p);
    } else {
      const ConfigEntry* own = s.find("Ownership");
      const ConfigEntry* st = s.find("Static");
      item_by_id_.emplace(
          p.id, ItemInfo{&p, own ? first_int(single_value(x_, props_.ownership, own->value)) : cached.ownership,
                         st ? first_int(single_value(x_, props_.is_static, st->value)) != 0 : cached.is_static});
    }
  }

  void check_id(const Placement& p, const LazyLabel& label) {
    if (!p.has_id) {
      x_.add(rule::kSharedPlacementIds, "id-missing", Severity::warning, Severity::error, p.line, m_.name, label,
             fmt::format("placement has no $Id; the loader assigns {}", p.id), fmt::format("add `$Id = {}`", p.id));
      return;
    }
    const auto strict_id = strict_decimal_int64(p.id_text);
    if (!strict_id) {
      x_.add(rule::kSharedPlacementIds, "id-not-decimal", Severity::warning, Severity::error, p.id_line, m_.name, label,
             fmt::format("$Id '{}' is not a plain decimal integer; the loader reads it as {} and uses {}", p.id_text,
                         p.authored_id, p.id),
             "write the id as a positive decimal integer");
    } else if (*strict_id <= 0) {
      x_.add(rule::kSharedPlacementIds, "id-not-positive", Severity::warning, Severity::error, p.id_line, m_.name,
             label, fmt::format("$Id {} is not positive; the loader replaces it with {}", *strict_id, p.id),
             "use a unique positive id");
    }
    if (p.authored_id > 0) {
      auto [it, inserted] = authored_.emplace(p.authored_id, &p);
      if (!inserted)
        x_.add(rule::kSharedPlacementIds, "id-duplicate", Severity::warning, Severity::error, p.id_line, m_.name, label,
               fmt::format("$Id {} is already used by {} at line {}; the loader renumbers this one to {}",
                           p.authored_id, label_of(*it->second), it->second->line, p.id),
               "give every critter and item of the map its own id");
    }
    if (p.id_repaired && p.authored_id > 0 && authored_[p.authored_id] == &p)
      x_.add(rule::kSharedPlacementIds, "id-displaced", Severity::warning, Severity::error, p.id_line, m_.name, label,
             fmt::format("$Id {} was taken by an earlier repaired placement; the loader uses {}", p.authored_id, p.id),
             "give every critter and item of the map its own explicit id");
  }

  // Placements repeat a few protos many times: a per-map cache keeps the lookups hot.
  const CachedProto& cached_proto(const Placement& p) {
    const std::uint64_t key = (static_cast<std::uint64_t>(p.kind) << 63) ^ std::hash<std::string_view>{}(p.proto);
    auto hit = proto_cache_.find(key);
    if (hit != proto_cache_.end() && hit->second.first == p.proto && hit->second.kind == p.kind) return hit->second;
    const Proto* found = find_placement_proto(x_.project, p);
    CachedProto c{p.proto, p.kind, found, 0, false};
    if (p.kind == PlacementKind::item) {
      c.ownership = first_int(single_value(x_, props_.ownership, proto_text(found, "Ownership")));
      c.is_static = first_int(single_value(x_, props_.is_static, proto_text(found, "Static"))) != 0;
    }
    return proto_cache_[key] = c;
  }

  // The placement's own keys: directives other than $Id/$Proto, then each property.
  void check_keys(const Placement& p, const ConfigSection& s, const LazyLabel& label) {
    const std::string_view entity = receiver_of(p.kind);
    bool migrated = false;
    for (const auto& e : s.entries) {
      if (e.key.empty() || e.key.front() == '_') continue;
      if (e.key.front() == '$') {
        if (e.key != "$Id" && e.key != "$Proto")
          x_.add(rule::kMapperRoundTrip, "unknown-directive", Severity::warning, Severity::error, e.line, m_.name,
                 label, fmt::format("directive '{}' is ignored by the engine and dropped by a Mapper save", e.key),
                 "delete it");
        continue;
      }
      if (const PropertyInfo* info = check_property_entry(x_, entity, e, m_.name, label, size_);
          info && info->name != e.key)
        migrated = true;
    }
    if (migrated) check_aliases(x_, entity, s, m_.name, label);
  }

  void check_hex(const Placement& p, const Proto* proto, const LazyLabel& label) {
    if (!size_.known) return;
    const auto hex =
        effective_value(x_, p, proto, "Hex", p.kind == PlacementKind::critter ? props_.critter_hex : props_.item_hex);
    if (!hex) return;
    const auto hx = hex->ints[0], hy = hex->ints[1];
    if (hx < 0 || hy < 0 || hx >= size_.w || hy >= size_.h) {
      const ConfigEntry* e = x_.c.section(p.section).find("Hex");
      x_.add(
          rule::kBounds, "hex-out-of-bounds", Severity::error, Severity::error, e ? e->line : p.line, m_.name, label,
          fmt::format("Hex {} {}{} is outside Size {} {}", hx, hy, e ? "" : " (from the prototype)", size_.w, size_.h),
          fmt::format("move it inside 0..{} x 0..{}", size_.w - 1, size_.h - 1));
    }
  }

  // Critters are written before map items; a critter after the first MapHex item is not Mapper order.
  void check_critter_order() {
    const auto first_item = std::find_if(m_.items.begin(), m_.items.end(), [&](const Placement& p) {
      return p.has_proto && item_by_id_.at(p.id).ownership == 0;
    });
    if (first_item == m_.items.end()) return;
    for (const auto& p : m_.critters)
      if (p.line > first_item->line)
        x_.add(rule::kNormalizedOrder, "critter-after-item", Severity::note, Severity::warning, p.line, m_.name,
               label_of(p), "critter section after an item section: the loader still processes all critters first",
               "run `sortie fomap fmt` to write the Mapper order");
  }

  void check_item(std::size_t i) {
    const Placement& p = m_.items[i];
    const LazyLabel label{&p};
    const ConfigSection& s = x_.c.section(p.section);
    const ItemInfo& info = item_by_id_.at(p.id);
    const Proto* proto = item_protos_[i];
    check_flag_overrides(s, proto, label);
    const ConfigEntry* own_entry = s.find("Ownership");
    const std::uint32_t own_line = own_entry ? own_entry->line : p.line;
    if (info.is_static && info.ownership != 0)
      x_.add(rule::kStaticItems, "static-not-maphex", Severity::error, Severity::error, own_line, m_.name, label,
             "a static item must have Ownership MapHex", "use a dynamic prototype for inventory and container items");
    switch (info.ownership) {
      case 0:
        check_hex(p, proto, label);
        break;
      case 1:
        check_inventory_owner(p, s, proto, label, own_line);
        break;
      case 2:
        check_container(i, s, proto, label, own_line);
        break;
      case 3:
        x_.add(rule::kOwnershipReferences, "ownership-nowhere", Severity::error, Severity::error, own_line, m_.name,
               label, "Ownership Nowhere is not supported for map placements",
               "use MapHex, CritterInventory or ItemContainer");
        break;
      default:
        break;
    }
  }

  // Per-placement Static / Hidden that differ from the prototype.
  void check_flag_overrides(const ConfigSection& s, const Proto* proto, const LazyLabel& label) {
    for (const auto& [key, rid, what] :
         {std::tuple{std::string_view("Static"), rule::kSideSpecificBake, "client and server disagree on static-ness"},
          std::tuple{std::string_view("Hidden"), rule::kHiddenStaticItems,
                     "the client layer follows the proto's Hidden"}}) {
      const ConfigEntry* e = s.find(key);
      if (!e || !proto) continue;
      const PropertyInfo* pi = cat_.find("Item", key);
      if (!pi) continue;
      auto mine = parse_value(pi->type, e->value, cat_);
      auto it = proto->resolved.find(key);
      auto theirs = it == proto->resolved.end() ? core::Result<PropertyValue>(default_value(pi->type, cat_))
                                                : parse_value(pi->type, it->second, cat_);
      if (mine && theirs && !(*mine == *theirs))
        x_.add(rid, key == "Static" ? "static-override" : "hidden-override", Severity::warning, Severity::error,
               e->line, m_.name, label,
               fmt::format("per-placement {} = {} differs from the prototype: {}", key, e->value, what),
               fmt::format("delete the {} key and use a prototype with the wanted flag", key));
    }
  }

  void check_inventory_owner(const Placement& p, const ConfigSection& s, const Proto* proto, const LazyLabel& label,
                             std::uint32_t own_line) {
    const auto cid = first_int(effective_value(x_, p, proto, "CritterId", props_.critter_id));
    const ConfigEntry* e = s.find("CritterId");
    if (!critter_by_id_.count(cid))
      x_.add(rule::kOwnershipReferences, "critter-not-found", Severity::error, Severity::error, e ? e->line : own_line,
             m_.name, label,
             fmt::format("CritterInventory item: CritterId {} names no critter placement of this map", cid),
             "set CritterId to the $Id of a [$Name/Critter] placement");
  }

  void check_container(std::size_t i, const ConfigSection& s, const Proto* proto, const LazyLabel& label,
                       std::uint32_t own_line) {
    const auto cid = first_int(effective_value(x_, m_.items[i], proto, "ContainerId", props_.container_id));
    const ConfigEntry* e = s.find("ContainerId");
    const std::uint32_t line = e ? e->line : own_line;
    auto it = item_by_id_.find(cid);
    if (it == item_by_id_.end()) {
      x_.add(rule::kOwnershipReferences, "container-not-found", Severity::error, Severity::error, line, m_.name, label,
             fmt::format("ItemContainer item: ContainerId {} names no item placement of this map", cid),
             "set ContainerId to the $Id of a map item");
    } else if (it->second.ownership != 0) {
      x_.add(rule::kOwnershipReferences, "child-of-child", Severity::error, Severity::error, line, m_.name, label,
             fmt::format("ContainerId {} names an item that is itself inside a critter or container; deeper nesting "
                         "is not materialized",
                         cid),
             "put the item into a MapHex container");
    } else if (item_position_.at(cid) > i) {
      x_.add(rule::kOwnershipReferences, "container-after-content", Severity::error, Severity::error, line, m_.name,
             label,
             fmt::format("container {} appears later in the file than its content; the Mapper cannot load this", cid),
             "move the container's section before its contents (`sortie fomap fmt`)");
    } else if (it->second.is_static) {
      x_.add(rule::kRuntimeMaterialization, "static-container", Severity::warning, Severity::error, line, m_.name,
             label, fmt::format("container {} is static; the server never materializes its contents", cid),
             "use a dynamic (non-static) container prototype");
    }
  }

  Ctx& x_;
  const MapDefinition& m_;
  const MapSize size_;
  const PropertyCatalog& cat_;
  const EffectiveProps props_;
  std::pmr::monotonic_buffer_resource arena_;
  std::pmr::unordered_map<std::int64_t, const Placement*> authored_;
  std::pmr::unordered_map<std::int64_t, const Placement*> critter_by_id_;
  std::pmr::unordered_map<std::int64_t, ItemInfo> item_by_id_;
  std::pmr::unordered_map<std::uint64_t, CachedProto> proto_cache_;
  std::pmr::unordered_map<std::int64_t, std::size_t> item_position_;  // id -> index in items (file order)
  std::vector<const Proto*> critter_protos_;
  std::vector<const Proto*> item_protos_;
};

}  // namespace

LintReport lint_container(const MapContainer& container, const Project& project, const LintOptions& options) {
  LintReport report;
  report.files = 1;
  report.maps = container.maps().size();
  Ctx x{container, project, options, report};
  check_config(x);
  check_structure(x);
  check_identity(x);
  for (const auto& m : container.maps()) {
    report.placements += m.critters.size() + m.items.size();
    const std::size_t before = report.findings.size();
    MapChecker(x, m).run();
    check_map_references(container, m, project, options, report);
    const auto errors_in_map = static_cast<std::size_t>(
        std::count_if(report.findings.begin() + static_cast<std::ptrdiff_t>(before), report.findings.end(),
                      [](const Finding& f) { return f.severity == Severity::error; }));
    if (errors_in_map > 0 && !m.anchors.empty())
      x.add(
          rule::kErrorAggregation, "map-fails", Severity::note, Severity::note, container.anchors()[m.anchors[0]].line,
          m.name, "",
          fmt::format("map '{}' has {} error(s): the engine logs each and fails the whole map", m.name, errors_in_map),
          "fix the errors above");
  }
  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    if (a.line != b.line) return a.line < b.line;
    return a.rule < b.rule;
  });
  return report;
}

}  // namespace sortie::fomap
