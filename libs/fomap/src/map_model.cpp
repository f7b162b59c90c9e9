// Map containers: anchors, addressing, processing order, ID repair (spec/fomap.md §3).
#include "sortie/fomap/map_model.hpp"

#include <algorithm>

#include "sortie/fomap/values.hpp"

namespace sortie::fomap {

std::string_view to_string(PlacementKind kind) { return kind == PlacementKind::critter ? "Critter" : "Item"; }

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
  for (const auto& m : maps_)
    if (m.name == name) return &m;
  return nullptr;
}

MapContainer MapContainer::from_text(std::string text, std::string path) {
  MapContainer c;
  c.path_ = std::move(path);
  c.stem_ = file_stem(c.path_);
  c.config_ = parse_config(std::move(text));
  const auto& sections = c.config_.sections();

  struct Pending {
    Placement placement;
    std::string owner;  // resolved owner map name
  };
  std::vector<Pending> pending;
  std::size_t last_anchor = static_cast<std::size_t>(-1);

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
      c.anchors_.push_back(std::move(a));
      last_anchor = c.anchors_.size() - 1;
      continue;
    }
    const std::string_view prefix = s.name.substr(0, slash);
    const std::string_view type = s.name.substr(slash + 1);
    PlacementKind kind;
    if (type == "Critter") kind = PlacementKind::critter;
    else if (type == "Item") kind = PlacementKind::item;
    else {
      c.structure_errors_.push_back({"fomap.structure.nested_type", s.header_line, std::string(s.name),
                                     "section [" + std::string(s.name) + "] has type '" + std::string(type) +
                                         "' (only Critter and Item exist)"});
      continue;
    }
    Pending p;
    p.placement.kind = kind;
    p.placement.section = i;
    p.placement.line = s.header_line;
    p.placement.owner_text = prefix;
    if (prefix == "$Name") {
      p.placement.contextual = true;
      if (last_anchor == static_cast<std::size_t>(-1)) {
        c.structure_errors_.push_back({"fomap.structure.no_anchor_before", s.header_line, std::string(s.name),
                                       "[" + std::string(s.name) + "] appears before any [ProtoMap] anchor"});
        continue;
      }
      p.owner = c.anchors_[last_anchor].name;
    } else {
      p.owner = std::string(prefix);
    }
    if (const ConfigEntry* e = s.find("$Id")) {
      p.placement.has_id = true;
      p.placement.id_text = e->value;
      p.placement.id_line = e->line;
      p.placement.authored_id = lenient_int64(e->value);
    }
    if (const ConfigEntry* e = s.find("$Proto")) {
      p.placement.has_proto = true;
      p.placement.proto = e->value;
      p.placement.proto_line = e->line;
    }
    pending.push_back(std::move(p));
  }

  if (c.anchors_.empty() && (sections.size() > 1 || !sections[0].entries.empty())) {
    c.structure_errors_.push_back({"fomap.structure.no_anchor", 0, "", "the file declares no [ProtoMap] anchor"});
  }

  // Maps in first-anchor order, de-duplicated by name.
  for (std::size_t a = 0; a < c.anchors_.size(); ++a) {
    auto it = std::find_if(c.maps_.begin(), c.maps_.end(), [&](const MapDefinition& m) { return m.name == c.anchors_[a].name; });
    if (it == c.maps_.end()) {
      c.maps_.push_back(MapDefinition{c.anchors_[a].name, {a}, {}, {}});
    } else {
      it->anchors.push_back(a);
    }
  }
  for (auto& p : pending) {
    auto it = std::find_if(c.maps_.begin(), c.maps_.end(), [&](const MapDefinition& m) { return m.name == p.owner; });
    if (it == c.maps_.end()) {
      const ConfigSection& s = sections[p.placement.section];
      c.structure_errors_.push_back({"fomap.structure.undeclared_owner", p.placement.line, std::string(s.name),
                                     "[" + std::string(s.name) + "] is addressed to map '" + p.owner +
                                         "' which no [ProtoMap] of this file declares"});
      continue;
    }
    (p.placement.kind == PlacementKind::critter ? it->critters : it->items).push_back(std::move(p.placement));
  }
  std::sort(c.structure_errors_.begin(), c.structure_errors_.end(),
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
