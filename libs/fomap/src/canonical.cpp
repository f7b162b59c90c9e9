// The Mapper's canonical text of one map (spec/fomap.md §9.2-§9.4); whole containers and the
// multi-map splice are in canonical_container.cpp.
#include "sortie/fomap/canonical.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "sortie/fomap/multihex.hpp"
#include "sortie/fomap/multihex_merge.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {
namespace {

using core::Diagnostic;
using core::fail;

struct Line {
  std::string key;
  std::string value;  // formatted value
  bool mesh = false;  // MultihexMesh continued-pair layout
};

void write_line(std::string& out, const Line& l) {
  out += l.key;
  if (l.mesh) {
    out += " = \\\n";
    // Split the value on single spaces and pair the tokens (`"x` + `y"`).
    std::vector<std::string_view> toks;
    std::string_view v = l.value;
    std::size_t pos = 0;
    while (pos <= v.size()) {
      const std::size_t sp = v.find(' ', pos);
      toks.push_back(v.substr(pos, sp == std::string_view::npos ? std::string_view::npos : sp - pos));
      if (sp == std::string_view::npos) break;
      pos = sp + 1;
    }
    for (std::size_t i = 0; i + 1 < toks.size(); i += 2) {
      out += ' ';
      out += toks[i];
      out += ' ';
      out += toks[i + 1];
      out += (i + 2 < toks.size()) ? " \\\n" : "\n";
    }
    return;
  }
  if (l.value.empty()) {
    out += " =\n";
    return;
  }
  out += " = ";
  out += l.value;
  out += '\n';
}

// Effective position and mesh of an item after the Mapper's load normalization.
struct Geometry {
  bool known = false;
  Hex origin;
  std::vector<Hex> mesh;
};

// A loaded placement. Its key lines are rendered once, into the map's arena (one string for the
// whole map instead of a string per key), and copied into the output in Mapper order.
struct Loaded {
  const Placement* p = nullptr;
  std::size_t begin = 0;  // rendered lines: arena[begin, end), or merged[begin] when `merged`
  std::size_t end = 0;
  std::vector<std::size_t> children;  // indices into the item list
  bool alive = true;
  bool merged = false;  // a merge survivor rendered again with its merged mesh
};

// A MapHex item whose proto or override says MultihexGeneration SameSibling / AnyUnique: what
// the merge needs beyond the rendered text.
struct MergeCandidate {
  std::size_t item = 0;  // index into the item list
  int generation = 0;
  Geometry geometry;
  std::vector<std::pair<std::string, std::string>> data;  // written overrides but $Id, $Proto, Hex, MultihexMesh
};

// A whole section: header, key lines, the blank line after it.
void write_section(std::string& out, std::string_view header, const std::vector<Line>& lines) {
  out += header;
  for (const auto& line : lines) write_line(out, line);
  out += '\n';
}

void render(std::string& arena, std::string_view header, const std::vector<Line>& lines, Loaded& l) {
  l.begin = arena.size();
  write_section(arena, header, lines);
  l.end = arena.size();
}

struct Ctx {
  const MapContainer& c;
  const Project& project;
  const MapDefinition& m;
  bool size_known = false;
  std::int64_t w = 0;
  std::int64_t h = 0;
};

Diagnostic fmt_error(const Ctx& x, std::string code, std::string message, std::uint32_t line) {
  return Diagnostic::error(std::move(code), std::move(message)).of(x.c.path()).in(fmt::format("line {}", line));
}

std::string placement_label(const Placement& p) {
  return fmt::format("{} $Id={} $Proto={}", to_string(p.kind), p.id_text, p.proto);
}

// One property of a placement as the formatter sees it.
struct Prop {
  std::string name;
  const PropertyInfo* info;
  PropertyValue value;
  std::string_view key;  // the authored key (an old name migrates to `name`)
};

// The properties of one placement: its authored keys (old names migrated), and on demand the
// value its prototype gives one it does not set.
class PlacementProps {
 public:
  PlacementProps(const Ctx& x, const Placement& p, const Proto* proto)
      : x_(x), p_(p), cat_(x.project.properties), entity_(receiver_of(p.kind)), proto_(proto) {}

  // Parses every authored key; a key the catalog does not know, one that cannot be authored or
  // a value that does not parse fails the format.
  core::Status read() {
    const ConfigSection& section = x_.c.section(p_.section);
    // Room for the two the formatter may add (Hex, MultihexMesh): pointers into `props` stay valid.
    props.reserve(section.entries.size() + 2);
    for (const auto& e : section.entries) {
      if (e.key.empty() || e.key.front() == '$' || e.key.front() == '_') continue;
      SORTIE_TRY(const PropertyInfo* info, authorable_info(e));
      auto v = parse_value(info->type, e.value, cat_);
      if (!v)
        return fail(fmt_error(x_, "fomap.fmt.bad_value",
                              fmt::format("{}: {}.{}: {}", placement_label(p_), entity_, info->name, v.error().message),
                              e.line));
      // An old and a new name of one property: the engine applies keys in byte order, so the
      // key that sorts last wins (§5.1).
      if (auto it = index_.find(info->name); it != index_.end()) {
        Prop& prior = props[it->second];
        if (e.key > prior.key) {
          prior.value = std::move(*v);
          prior.key = e.key;
        }
        continue;
      }
      index_[info->name] = props.size();
      props.push_back(Prop{info->name, info, std::move(*v), e.key});
    }
    return {};
  }

  // The prototype's value of a property (its default when the prototype does not set it);
  // nullopt without a prototype or when its text does not parse.
  std::optional<PropertyValue> proto_value(const PropertyInfo* info) const {
    if (!proto_) return std::nullopt;
    auto it = proto_->resolved.find(info->name);
    if (it == proto_->resolved.end()) return default_value(info->type, cat_);
    auto v = parse_value(info->type, it->second, cat_);
    if (!v) return std::nullopt;
    return std::move(*v);
  }

  Prop* find(std::string_view name) {
    auto it = index_.find(std::string(name));
    return it == index_.end() ? nullptr : &props[it->second];
  }

  // The property as authored, else added with the prototype's (or the default) value.
  Prop* get_or_proto(std::string_view name) {
    if (Prop* found = find(name)) return found;
    const PropertyInfo* info = cat_.find(entity_, name);
    if (!info) return nullptr;
    auto pv = proto_value(info);
    index_[info->name] = props.size();
    props.push_back(Prop{info->name, info, pv ? std::move(*pv) : default_value(info->type, cat_), {}});
    return &props.back();
  }

  std::vector<Prop> props;

 private:
  core::Result<const PropertyInfo*> authorable_info(const ConfigEntry& e) const {
    const PropertyInfo* info = cat_.find(entity_, e.key);
    if (!info)
      return fail(fmt_error(x_, "fomap.fmt.unknown_property",
                            fmt::format("{}: {} has no property '{}'", placement_label(p_), entity_, e.key), e.line));
    if (!info->authorable)
      return fail(fmt_error(
          x_, "fomap.fmt.not_authorable",
          fmt::format("{}: {}.{} is {}", placement_label(p_), entity_, info->name, info->excluded_reason), e.line));
    if (info->name == "MultihexMesh" && ends_in_open_quote(e.value))
      return fail(fmt_error(x_, "fomap.fmt.mesh_unterminated_quote",
                            fmt::format("{}: MultihexMesh ends inside a quoted pair (a cut line?); formatting would "
                                        "turn the open pair into a hex and may move the item (lint rule {})",
                                        placement_label(p_), "map-format.rule.multihex-mesh"),
                            e.line));
    return info;
  }

  const Ctx& x_;
  const Placement& p_;
  const PropertyCatalog& cat_;
  std::string_view entity_;
  const Proto* proto_;
  std::unordered_map<std::string, std::size_t> index_;
};

Hex hex_of(const ScalarValue& v) {
  return {static_cast<std::int32_t>(v.ints[0]), static_cast<std::int32_t>(v.ints[1])};
}

void set_hex(ScalarValue& v, Hex h) {
  v.ints[0] = h.x;
  v.ints[1] = h.y;
}

void set_mesh(Prop& mesh, const std::vector<Hex>& hexes) {
  mesh.value.elements.clear();
  for (const auto& hx : hexes) set_hex(mesh.value.elements.emplace_back(), hx);
}

// Mapper load: the hex of a critter or a MapHex item is clamped into the map.
void clamp_hex(const Ctx& x, PlacementProps& props) {
  Prop* hex = props.get_or_proto("Hex");
  if (hex && !hex->value.elements.empty()) {
    auto& v = hex->value.elements[0];
    v.ints[0] = std::clamp<std::int64_t>(v.ints[0], 0, std::max<std::int64_t>(0, x.w - 1));
    v.ints[1] = std::clamp<std::int64_t>(v.ints[1], 0, std::max<std::int64_t>(0, x.h - 1));
  }
}

// A merge survivor: its origin and mesh become the merged geometry.
core::Status apply_geometry(const Ctx& x, const Placement& p, PlacementProps& props, const Geometry& geometry) {
  Prop* hex = props.get_or_proto("Hex");
  Prop* mesh = props.get_or_proto("MultihexMesh");
  if (!mesh) return fail(fmt_error(x, "fomap.fmt.no_mesh", "Item has no MultihexMesh property", p.line));
  if (hex && !hex->value.elements.empty()) set_hex(hex->value.elements[0], geometry.origin);
  set_mesh(*mesh, geometry.mesh);
  return {};
}

// The Mapper's mesh normalization: hexes sorted (y, then x) without repeats or the origin, and
// the least hex becomes the origin.
core::Status normalize_mesh(const Ctx& x, const Placement& p, PlacementProps& props, bool maphex) {
  Prop* hex = props.get_or_proto("Hex");
  Prop* mesh = props.find("MultihexMesh");
  // The Mapper clamps only the origin; a mesh hex outside the map could become the origin and
  // be clamped on the next load, so its output would not be stable. Refuse instead of moving it.
  if (maphex && x.size_known)
    for (const auto& e : mesh->value.elements)
      if (e.ints[0] < 0 || e.ints[0] >= x.w || e.ints[1] < 0 || e.ints[1] >= x.h)
        return fail(fmt_error(x, "fomap.fmt.mesh_out_of_bounds",
                              fmt::format("{}: MultihexMesh hex {} {} is outside the map ({} x {}); fix or remove it "
                                          "first (lint rule map-format.rule.bounds)",
                                          placement_label(p), e.ints[0], e.ints[1], x.w, x.h),
                              p.line));
  if (!hex || hex->value.elements.empty()) return {};
  Hex origin = hex_of(hex->value.elements[0]);
  std::vector<Hex> all;
  all.reserve(mesh->value.elements.size() + 1);
  for (const auto& e : mesh->value.elements) all.push_back(hex_of(e));
  auto less = [](const Hex& a, const Hex& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; };
  std::sort(all.begin(), all.end(), less);
  all.erase(std::unique(all.begin(), all.end()), all.end());
  all.erase(std::remove(all.begin(), all.end(), origin), all.end());
  if (!all.empty() && less(all.front(), origin)) {
    std::swap(all.front(), origin);
    std::sort(all.begin(), all.end(), less);
  }
  set_hex(hex->value.elements[0], origin);
  set_mesh(*mesh, all);
  return {};
}

// The item's effective origin and mesh, for the multihex merge.
void read_geometry(PlacementProps& props, Geometry& geometry) {
  Prop* hex = props.get_or_proto("Hex");
  if (!hex || hex->value.elements.empty()) return;
  geometry.known = true;
  geometry.origin = hex_of(hex->value.elements[0]);
  if (const Prop* mesh = props.find("MultihexMesh"))
    for (const auto& e : mesh->value.elements) geometry.mesh.push_back(hex_of(e));
}

// The key lines of a placement sorted by key: $Id, $Proto (migrated), and each property whose
// value differs from the prototype's.
core::Result<std::vector<Line>> key_lines(const Ctx& x, const Placement& p, const PlacementProps& props) {
  const PropertyCatalog& cat = x.project.properties;
  std::vector<Line> lines;
  lines.push_back({"$Id", std::to_string(p.id), false});
  std::string proto_name(p.proto);
  if (auto mig = cat.migrate_proto(receiver_of(p.kind), p.proto)) proto_name = std::string(*mig);
  lines.push_back({"$Proto", proto_name, false});
  for (const auto& prop : props.props) {
    if (x.project.has_protos) {
      auto pv = props.proto_value(prop.info);
      if (pv && *pv == prop.value) continue;
    }
    const bool unknown_kind = prop.info->type.kind == ScalarKind::unknown || prop.info->type.kind == ScalarKind::any;
    std::string text;
    if (unknown_kind) {
      const ConfigEntry* e = x.c.section(p.section).find(prop.key.empty() ? std::string_view(prop.name) : prop.key);
      text = e ? std::string(e->value) : format_value(prop.info->type, prop.value, cat);
    } else {
      text = format_value(prop.info->type, prop.value, cat);
    }
    const bool mesh = prop.name == "MultihexMesh" && !text.empty();
    if (mesh) {
      std::size_t spaces = static_cast<std::size_t>(std::count(text.begin(), text.end(), ' '));
      if (spaces % 2 == 0)
        return fail(fmt_error(x, "fomap.fmt.mesh_tokens",
                              fmt::format("{}: MultihexMesh has an odd token count", placement_label(p)), p.line));
    }
    lines.push_back({prop.name, std::move(text), mesh});
  }
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.key < b.key; });
  return lines;
}

core::Result<std::vector<Line>> placement_lines(const Ctx& x, const Placement& p, bool maphex,
                                                Geometry* geometry = nullptr,
                                                const Geometry* override_geometry = nullptr) {
  const Proto* proto = find_placement_proto(x.project, p);
  if (x.project.has_protos && !proto)
    return fail(fmt_error(
        x, "fomap.fmt.proto_unknown",
        fmt::format("{}: no {} prototype named '{}'", placement_label(p), receiver_of(p.kind), p.proto), p.proto_line));
  PlacementProps props(x, p, proto);
  SORTIE_CHECK(props.read());
  if (maphex && x.size_known) clamp_hex(x, props);
  if (override_geometry) SORTIE_CHECK(apply_geometry(x, p, props, *override_geometry));
  if (p.kind == PlacementKind::item && props.find("MultihexMesh")) SORTIE_CHECK(normalize_mesh(x, p, props, maphex));
  if (geometry && p.kind == PlacementKind::item) read_geometry(props, *geometry);
  return key_lines(x, p, props);
}

// Ownership of an item as the Mapper sees it: 0 MapHex, 1 inventory, 2 container, 3 nowhere.
std::int64_t int_property(const Ctx& x, const Placement& p, std::string_view name) {
  const PropertyInfo* info = x.project.properties.find(receiver_of(p.kind), name);
  if (!info) return 0;
  auto text = effective_text(x.project, x.c, p, name);
  if (!text) return 0;
  auto v = parse_value(info->type, *text, x.project.properties);
  if (!v || v->elements.empty()) return 0;
  return v->elements[0].ints[0];
}

// Placement data for merge equality: the written overrides except $Id, $Proto, Hex, MultihexMesh.
std::vector<std::pair<std::string, std::string>> merge_data(const std::vector<Line>& lines) {
  std::vector<std::pair<std::string, std::string>> d;
  for (const auto& line : lines)
    if (line.key != "$Id" && line.key != "$Proto" && line.key != "Hex" && line.key != "MultihexMesh")
      d.emplace_back(line.key, line.value);
  return d;
}

// MergeItemsToMultihexMeshes (§9.3) over the MapHex items (candidates are in load order); the
// absorbed items die, the survivors whose geometry changed are re-rendered. Items with children
// never take part.
core::Status merge_multihex(const Ctx& x, std::vector<Loaded>& items, std::vector<MergeCandidate>& candidates,
                            std::string_view header, std::vector<std::string>& merged) {
  std::vector<MergeItem> ms;
  std::vector<MergeCandidate*> source;
  std::map<std::string_view, std::uint32_t> protos;
  std::map<std::vector<std::pair<std::string, std::string>>, std::uint32_t> classes;
  classes.emplace(std::vector<std::pair<std::string, std::string>>{}, 0);  // clean
  for (MergeCandidate& c : candidates) {
    const Loaded& l = items[c.item];
    if (!c.geometry.known || !l.children.empty()) continue;
    MergeItem m;
    m.id = l.p->id;
    m.proto = protos.emplace(l.p->proto, static_cast<std::uint32_t>(protos.size())).first->second;
    m.generation = c.generation;
    m.data_class = classes.emplace(std::move(c.data), static_cast<std::uint32_t>(classes.size())).first->second;
    m.origin = c.geometry.origin;
    m.mesh = std::move(c.geometry.mesh);
    ms.push_back(std::move(m));
    source.push_back(&c);
  }
  if (ms.empty()) return {};
  fomap::merge_multihex(ms);
  for (std::size_t i = 0; i < ms.size(); ++i) {
    Loaded& l = items[source[i]->item];
    if (!ms[i].alive) {
      l.alive = false;
    } else if (ms[i].changed) {
      const Geometry geometry{true, ms[i].origin, std::move(ms[i].mesh)};
      SORTIE_TRY(const auto lines, placement_lines(x, *l.p, true, nullptr, &geometry));
      l.merged = true;
      l.begin = merged.size();
      write_section(merged.emplace_back(), header, lines);
    }
  }
  return {};
}

// The anchor's own keys in authored order ($Name, $Text..., properties); other directives and
// `_` keys are dropped like the Mapper does. Checks each property and reads the map's Size into `x`.
core::Result<std::vector<const ConfigEntry*>> header_entries(Ctx& x, const ConfigSection& head) {
  const PropertyCatalog& cat = x.project.properties;
  std::vector<const ConfigEntry*> entries;
  for (const auto& e : head.entries) {
    if (e.key.empty() || e.key.front() == '_') continue;
    if (e.key.front() == '$' && e.key != "$Name" && e.key.substr(0, 5) != "$Text") continue;
    if (e.key.front() != '$') {
      const PropertyInfo* info = cat.find("Map", e.key);
      if (!info)
        return fail(fmt_error(x, "fomap.fmt.unknown_property",
                              fmt::format("[ProtoMap]: Map has no property '{}'", e.key), e.line));
      if (!info->authorable)
        return fail(fmt_error(x, "fomap.fmt.not_authorable",
                              fmt::format("[ProtoMap]: Map.{} is {}", info->name, info->excluded_reason), e.line));
      auto v = parse_value(info->type, e.value, cat);
      if (!v)
        return fail(fmt_error(x, "fomap.fmt.bad_value",
                              fmt::format("[ProtoMap]: Map.{}: {}", info->name, v.error().message), e.line));
      if (info->name == "Size" && !v->elements.empty()) {
        x.size_known = true;
        x.w = v->elements[0].ints[0];
        x.h = v->elements[0].ints[1];
      }
    }
    entries.push_back(&e);
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const ConfigEntry* a, const ConfigEntry* b) { return a->line < b->line; });
  return entries;
}

// The header keeps its authored order and text (the corpus shows Mapper-saved maps with project
// keys first, quoted hstrings and empty values); only values of number, bool, enum and struct
// types are re-spelled canonically.
void write_header(std::string& out, const Project& project, const std::vector<const ConfigEntry*>& entries) {
  for (const ConfigEntry* e : entries) {
    std::string value(e->value);
    if (e->key.front() != '$') {
      const PropertyInfo* info = project.properties.find("Map", e->key);
      const ScalarKind k = info->type.kind;
      const bool textual = k == ScalarKind::string || k == ScalarKind::hstring || k == ScalarKind::proto_ref ||
                           k == ScalarKind::any || k == ScalarKind::unknown;
      if (!textual) {
        if (auto v = canonical_value_text(info->type, e->value, project.properties)) value = std::move(*v);
      }
    }
    write_line(out, {std::string(e->key), std::move(value), false});
  }
  out += '\n';
}

// Addressing style: explicit `[<map>/...]` only when every placement of the map is written so.
std::string section_prefix(const MapDefinition& m, std::string_view map_name) {
  bool explicit_style = !m.critters.empty() || !m.items.empty();
  for (const auto* list : {&m.critters, &m.items})
    for (const auto& p : *list)
      if (p.contextual || p.owner_text != map_name) explicit_style = false;
  return explicit_style ? std::string(map_name) : std::string("$Name");
}

// Loads the placements like the Mapper: critters, then items attached to their owners (an
// inventory item may name a critter further down; a container must come before its contents).
// Each section is rendered into the arena in file order.
class PlacementLoader {
 public:
  PlacementLoader(const Ctx& x, std::string& arena, std::string_view prefix)
      : x_(x),
        m_(x.m),
        arena_(arena),
        critter_header_("[" + std::string(prefix) + "/Critter]\n"),
        item_header_("[" + std::string(prefix) + "/Item]\n"),
        critters_(m_.critters.size()) {
    items_.reserve(m_.items.size());
  }

  core::Status load() {
    for (std::size_t i = 0; i < m_.critters.size(); ++i) {
      const Placement& p = m_.critters[i];
      if (!p.has_proto) return fail(fmt_error(x_, "fomap.fmt.proto_missing", "placement has no $Proto", p.line));
      critters_[i].p = &p;
      critter_index_.emplace(p.id, i);
    }
    for (std::size_t ci = 0, ii = 0; ci < m_.critters.size() || ii < m_.items.size();) {
      if (ii == m_.items.size() || (ci < m_.critters.size() && m_.critters[ci].section < m_.items[ii].section)) {
        SORTIE_TRY(const auto lines, placement_lines(x_, m_.critters[ci], true));
        render(arena_, critter_header_, lines, critters_[ci]);
        ++ci;
      } else {
        SORTIE_CHECK(load_item(m_.items[ii]));
        ++ii;
      }
    }
    return {};
  }

  // Multihex merge (§9.3); the survivors whose geometry changed are rendered again into `merged`.
  core::Status merge(std::vector<std::string>& merged) {
    SORTIE_CHECK(merge_multihex(x_, items_, candidates_, item_header_, merged));
    candidates_ = {};
    return {};
  }

  // The Mapper's order: critters each followed by their inventory, map items each followed by
  // their direct children.
  std::vector<const Loaded*> mapper_order() const {
    std::vector<const Loaded*> order;
    order.reserve(critters_.size() + items_.size());
    for (const auto& c : critters_) {
      order.push_back(&c);
      for (std::size_t ch : c.children) order.push_back(&items_[ch]);
    }
    for (std::size_t r : roots_) {
      if (!items_[r].alive) continue;
      order.push_back(&items_[r]);
      for (std::size_t ch : items_[r].children) order.push_back(&items_[ch]);
    }
    return order;
  }

 private:
  core::Status load_item(const Placement& p) {
    if (!p.has_proto) return fail(fmt_error(x_, "fomap.fmt.proto_missing", "placement has no $Proto", p.line));
    const std::int64_t own = int_property(x_, p, "Ownership");
    const int generation = own == 0 ? static_cast<int>(int_property(x_, p, "MultihexGeneration")) : 0;
    const bool candidate = generation == 1 || generation == 2;
    Geometry geometry;
    SORTIE_TRY(const auto lines, placement_lines(x_, p, own == 0, candidate ? &geometry : nullptr));
    const std::size_t idx = items_.size();
    items_.push_back(Loaded{&p, 0, 0, {}, true});
    render(arena_, item_header_, lines, items_.back());
    if (candidate) candidates_.push_back(MergeCandidate{idx, generation, std::move(geometry), merge_data(lines)});
    return attach_item(p, own, idx);
  }

  // A MapHex item becomes a root; an inventory or container item a child of its owner.
  core::Status attach_item(const Placement& p, std::int64_t own, std::size_t idx) {
    if (own == 0) {
      roots_.push_back(idx);
      item_index_.emplace(p.id, idx);
    } else if (own == 1) {
      const std::int64_t owner = int_property(x_, p, "CritterId");
      auto it = critter_index_.find(owner);
      if (it == critter_index_.end())
        return fail(fmt_error(x_, "fomap.fmt.critter_not_found",
                              fmt::format("{}: CritterId {} names no critter", placement_label(p), owner), p.line));
      critters_[it->second].children.push_back(idx);
    } else if (own == 2) {
      const std::int64_t owner = int_property(x_, p, "ContainerId");
      auto it = item_index_.find(owner);
      if (it == item_index_.end())
        return fail(fmt_error(x_, "fomap.fmt.container_not_found",
                              fmt::format("{}: ContainerId {} names no earlier MapHex item", placement_label(p), owner),
                              p.line));
      items_[it->second].children.push_back(idx);
    } else {
      return fail(
          fmt_error(x_, "fomap.fmt.ownership", fmt::format("{}: unsupported Ownership", placement_label(p)), p.line));
    }
    return {};
  }

  const Ctx& x_;
  const MapDefinition& m_;
  std::string& arena_;
  const std::string critter_header_;
  const std::string item_header_;
  std::vector<Loaded> critters_;
  std::unordered_map<std::int64_t, std::size_t> critter_index_;
  std::vector<Loaded> items_;
  std::vector<std::size_t> roots_;
  std::vector<MergeCandidate> candidates_;
  std::unordered_map<std::int64_t, std::size_t> item_index_;  // MapHex items only
};

// The map's text: the arena itself when every section already stands in the Mapper's order (a
// canonical file: the usual case for `fmt --check`), else the sections copied out in that order.
std::string assemble(std::string arena, std::size_t header_end, const std::vector<std::string>& merged,
                     const std::vector<const Loaded*>& order) {
  std::size_t at = header_end;
  bool in_place = true;
  for (const Loaded* l : order) {
    in_place = in_place && !l->merged && l->begin == at;
    at = l->end;
  }
  if (in_place && at == arena.size()) return arena;
  auto section = [&](const Loaded& l) {
    return l.merged ? std::string_view(merged[l.begin]) : std::string_view(arena).substr(l.begin, l.end - l.begin);
  };
  std::size_t bytes = header_end;
  for (const Loaded* l : order) bytes += section(*l).size();
  std::string sorted;
  sorted.reserve(bytes);
  sorted.append(arena, 0, header_end);
  for (const Loaded* l : order) sorted += section(*l);
  return sorted;
}

}  // namespace

core::Result<std::string> format_map(const MapContainer& container, std::string_view map_name, const Project& project,
                                     const CanonicalOptions& options) {
  if (!container.structure_errors().empty()) {
    const auto& e = container.structure_errors().front();
    return fail(
        Diagnostic::error("fomap.fmt.structure", e.message).of(container.path()).in(fmt::format("line {}", e.line)));
  }
  const MapDefinition* m = container.find_map(map_name);
  if (!m)
    return fail(Diagnostic::error("fomap.fmt.no_map", "the file declares no such map")
                    .of(container.path())
                    .expect("a declared map", std::string(map_name)));
  Ctx x{container, project, *m};
  const MapAnchor& anchor = container.anchors()[m->anchors.front()];
  SORTIE_TRY(const auto head_entries, header_entries(x, container.section(anchor.section)));
  // Every section is rendered once, in file order, into one string (the arena).
  std::string arena = "[ProtoMap]\n";
  if (container.maps().size() == 1) {
    // Room for the text as it was and a little more (a final blank line, re-spelled values):
    // growing past the reservation would double the string.
    const std::size_t size = container.config().text().size();
    arena.reserve(size + size / 32 + 4096);
  }
  if (!anchor.named && options.always_write_name) write_line(arena, {"$Name", std::string(map_name), false});
  write_header(arena, project, head_entries);
  const std::size_t header_end = arena.size();

  PlacementLoader loader(x, arena, section_prefix(*m, map_name));
  SORTIE_CHECK(loader.load());
  std::vector<std::string> merged;
  SORTIE_CHECK(loader.merge(merged));
  const auto order = loader.mapper_order();
  return assemble(std::move(arena), header_end, merged, order);
}

}  // namespace sortie::fomap
