// Map containers: anchors, addressing, processing order, ID repair (spec/fomap.md §3).
#include "sortie/fomap/map_model.hpp"

#include <algorithm>

#include "sortie/fomap/values.hpp"

namespace sortie::fomap {

std::string_view to_string(PlacementKind kind) {
  return kind == PlacementKind::critter ? "Critter" : "Item";
}

std::string file_stem(std::string_view path) {
  const std::size_t slash = path.find_last_of("/\\");
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const std::size_t dot = name.rfind('.');
  if (dot != std::string_view::npos && dot > 0) name = name.substr(0, dot);
  return std::string(name);
}

std::int64_t IdRepair::fix(std::int64_t id) {
  if (id <= 0 || busy_.count(id) != 0) {
    std::int64_t n = last_;
    // The engine's `++n` on int64 wraps from INT64_MAX to INT64_MIN on every target it runs
    // on; do the same without signed overflow.
    while (busy_.count(n) != 0) n = static_cast<std::int64_t>(static_cast<std::uint64_t>(n) + 1U);
    busy_.insert(n);
    last_ = n;
    return n;
  }
  busy_.insert(id);
  last_ = std::max(last_, id);
  return id;
}

std::vector<const ConfigEntry*> Placement::properties(const MapContainer& container) const {
  std::vector<const ConfigEntry*> out;
  for (const auto& e : container.section(section).entries)
    if (!e.key.empty() && e.key.front() != '$' && e.key.front() != '_') out.push_back(&e);
  return out;
}

const MapDefinition* MapContainer::find_map(std::string_view name) const {
  auto it = map_index_.find(name);
  return it == map_index_.end() ? nullptr : &maps_[it->second];
}

MapContainer MapContainer::from_text(std::string text, std::string path) {
  MapContainer c;
  c.path_ = std::move(path);
  c.stem_ = file_stem(c.path_);
  c.config_ = parse_config(std::move(text));
  const auto& sections = c.config_.sections();

  // Pass 1: anchors, maps in first-anchor order (de-duplicated by name), and the owner map of
  // every placement section (explicit owners may name a map declared further down).
  constexpr std::uint32_t kNone = 0xffffffffu;
  std::vector<std::uint32_t> owner(sections.size(), kNone);
  std::vector<PlacementKind> kinds(sections.size(), PlacementKind::item);
  std::vector<std::uint32_t> context(sections.size(), kNone);  // anchor before a `$Name/` section
  auto map_of = [&](std::string_view name) -> std::uint32_t {
    auto it = c.map_index_.find(name);
    return it == c.map_index_.end() ? kNone : static_cast<std::uint32_t>(it->second);
  };
  std::uint32_t last_anchor = kNone;
  for (std::size_t i = 1; i < sections.size(); ++i) {
    const ConfigSection& s = sections[i];
    const std::size_t slash = s.name.find('/');
    if (slash == std::string_view::npos) {
      if (s.name != "ProtoMap") {
        c.structure_errors_.push_back({"fomap.structure.top_level", s.header_line, std::string(s.name),
                                       "top-level section [" + std::string(s.name) + "] is not [ProtoMap]"});
        continue;
      }
      MapAnchor a;
      a.section = i;
      a.line = s.header_line;
      if (const ConfigEntry* n = s.find("$Name")) {
        a.name = std::string(n->value);
        a.named = true;
      } else {
        a.name = c.stem_;
      }
      const std::uint32_t index = static_cast<std::uint32_t>(c.anchors_.size());
      if (std::uint32_t m = map_of(a.name); m != kNone) {
        c.maps_[m].anchors.push_back(index);
      } else {
        c.map_index_.emplace(a.name, c.maps_.size());
        c.maps_.push_back(MapDefinition{a.name, {index}, {}, {}});
      }
      c.anchors_.push_back(std::move(a));
      last_anchor = index;
      continue;
    }
    const std::string_view type = s.name.substr(slash + 1);
    if (type == "Critter")
      kinds[i] = PlacementKind::critter;
    else if (type != "Item") {
      c.structure_errors_.push_back(
          {"fomap.structure.nested_type", s.header_line, std::string(s.name),
           "section [" + std::string(s.name) + "] has type '" + std::string(type) + "' (only Critter and Item exist)"});
      continue;
    }
    if (s.name.substr(0, slash) == "$Name") {
      if (last_anchor == kNone) {
        c.structure_errors_.push_back({"fomap.structure.no_anchor_before", s.header_line, std::string(s.name),
                                       "[" + std::string(s.name) + "] appears before any [ProtoMap] anchor"});
        continue;
      }
      context[i] = last_anchor;
    }
    owner[i] = 0;  // a placement section; its map is resolved below
  }

  if (c.anchors_.empty() && (sections.size() > 1 || !sections[0].entries.empty())) {
    c.structure_errors_.push_back({"fomap.structure.no_anchor", 0, "", "the file declares no [ProtoMap] anchor"});
  }

  // Pass 2: owners and placement counts, so every placement list is allocated once.
  std::vector<std::size_t> critter_count(c.maps_.size(), 0), item_count(c.maps_.size(), 0);
  for (std::size_t i = 1; i < sections.size(); ++i) {
    if (owner[i] == kNone) continue;
    const ConfigSection& s = sections[i];
    const std::string_view prefix = s.name.substr(0, s.name.find('/'));
    const std::string_view name = context[i] != kNone ? std::string_view(c.anchors_[context[i]].name) : prefix;
    owner[i] = map_of(name);
    if (owner[i] == kNone) {
      c.structure_errors_.push_back({"fomap.structure.undeclared_owner", s.header_line, std::string(s.name),
                                     "[" + std::string(s.name) + "] is addressed to map '" + std::string(name) +
                                         "' which no [ProtoMap] of this file declares"});
      continue;
    }
    ++(kinds[i] == PlacementKind::critter ? critter_count : item_count)[owner[i]];
  }
  for (std::size_t m = 0; m < c.maps_.size(); ++m) {
    c.maps_[m].critters.reserve(critter_count[m]);
    c.maps_[m].items.reserve(item_count[m]);
  }

  // Pass 3: the placements, in file order per map.
  for (std::size_t i = 1; i < sections.size(); ++i) {
    if (owner[i] == kNone) continue;
    const ConfigSection& s = sections[i];
    const std::size_t slash = s.name.find('/');
    Placement p;
    p.kind = kinds[i];
    p.section = i;
    p.line = s.header_line;
    p.owner_text = s.name.substr(0, slash);
    p.contextual = context[i] != kNone;
    if (const ConfigEntry* e = s.find("$Id")) {
      p.has_id = true;
      p.id_text = e->value;
      p.id_line = e->line;
      p.authored_id = lenient_int64(e->value);
    }
    if (const ConfigEntry* e = s.find("$Proto")) {
      p.has_proto = true;
      p.proto = e->value;
      p.proto_line = e->line;
    }
    MapDefinition& m = c.maps_[owner[i]];
    (p.kind == PlacementKind::critter ? m.critters : m.items).push_back(p);
  }
  std::stable_sort(c.structure_errors_.begin(), c.structure_errors_.end(),
                   [](const StructureError& a, const StructureError& b) { return a.line < b.line; });

  // ID repair per map: critters then items; placements without $Proto consume no id.
  for (auto& m : c.maps_) {
    IdRepair repair;
    for (auto* list : {&m.critters, &m.items}) {
      for (auto& p : *list) {
        if (!p.has_proto) continue;
        p.id = repair.fix(p.authored_id);
        p.id_repaired = p.id != p.authored_id || !p.has_id;
      }
    }
  }
  return c;
}

}  // namespace sortie::fomap
