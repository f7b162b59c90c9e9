// JSON model of map containers in the canonical model's vocabulary.
#include "sortie/fomap/json_model.hpp"

#include <fmt/format.h>

#include <ostream>

namespace sortie::fomap {
namespace {

using core::Json;

Json scalar_json(const PropertyType& type, ScalarKind kind, const ScalarValue& s) {
  switch (kind) {
    case ScalarKind::boolean:
      return s.ints[0] != 0;
    case ScalarKind::float32:
    case ScalarKind::float64:
      return s.real;
    case ScalarKind::string:
    case ScalarKind::hstring:
    case ScalarKind::proto_ref:
    case ScalarKind::any:
    case ScalarKind::unknown:
      return s.text;
    case ScalarKind::enumeration:
      if (!s.text.empty()) return s.text;
      return s.ints[0];
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
    case ScalarKind::ipos:
    case ScalarKind::isize:
      return Json::array({s.ints[0], s.ints[1]});
    case ScalarKind::irect:
      return Json::array({s.ints[0], s.ints[1], s.ints[2], s.ints[3]});
    case ScalarKind::uint64:
      return static_cast<std::uint64_t>(s.ints[0]);
    default:
      break;
  }
  (void)type;
  return s.ints[0];
}

std::string property_id(const PropertyInfo& info) {
  return fmt::format("{}.property.{}.{}", info.origin == PropertyOrigin::engine ? "map-format" : "project", info.entity,
                     info.name);
}

Json properties_json(std::string_view receiver, const std::vector<const ConfigEntry*>& entries,
                     const Project& project) {
  Json arr = Json::array();
  for (const ConfigEntry* e : entries) {
    Json p{{"name", std::string(e->key)}, {"text", std::string(e->value)}, {"line", e->line}};
    if (const PropertyInfo* info = project.properties.find(receiver, e->key)) {
      p["id"] = property_id(*info);
      p["type"] = info->type.text;
      if (info->name != e->key) p["migrated_name"] = info->name;
      if (!info->authorable) p["authorable"] = false;
      if (auto v = parse_value(info->type, e->value, project.properties)) {
        p["value"] = value_json(info->type, *v);
      } else {
        p["value_error"] = v.error().to_json();
      }
    } else {
      p["id"] = nullptr;
      p["unknown"] = true;
    }
    arr.push_back(std::move(p));
  }
  return arr;
}

Json placement_json(const MapContainer& container, const Placement& pl, const Project& project) {
  const bool critter = pl.kind == PlacementKind::critter;
  Json j{{"section", critter ? model_id::kSectionCritter : model_id::kSectionItem},
         {"header", std::string(container.section(pl.section).name)},
         {"line", pl.line},
         {"contextual", pl.contextual},
         {"id", pl.id}};
  Json directives = Json::object();
  if (pl.has_id) {
    directives[std::string(model_id::kDirectiveEntityId)] = std::string(pl.id_text);
    if (pl.id_repaired) j["authored_id"] = pl.authored_id;
  }
  if (pl.has_proto) {
    directives[std::string(model_id::kDirectiveEntityProto)] = std::string(pl.proto);
    j["proto"] = std::string(pl.proto);
  }
  j["id_repaired"] = pl.id_repaired;
  j["directives"] = std::move(directives);
  const auto props = pl.properties(container);
  j["properties"] = properties_json(critter ? "Critter" : "Item", props, project);
  if (!critter) {
    std::int64_t own = 0;
    for (const ConfigEntry* e : props) {
      const PropertyInfo* info = project.properties.find("Item", e->key);
      if (info && info->name == "Ownership") {
        if (auto v = parse_value(info->type, e->value, project.properties); v && !v->elements.empty())
          own = v->elements[0].ints[0];
      }
    }
    const std::string_view oid = ownership_id(own);
    j["ownership"] = oid.empty() ? Json(own) : Json(std::string(oid));
  }
  return j;
}

}  // namespace

std::string_view ownership_id(std::int64_t value) {
  switch (value) {
    case 0:
      return "map-format.ownership.map-hex";
    case 1:
      return "map-format.ownership.critter-inventory";
    case 2:
      return "map-format.ownership.item-container";
    case 3:
      return "map-format.ownership.nowhere";
    default:
      return "";
  }
}

Json value_json(const PropertyType& type, const PropertyValue& value) {
  if (type.container == Container::single)
    return value.elements.empty() ? Json(nullptr) : scalar_json(type, type.kind, value.elements.front());
  if (type.container == Container::array) {
    Json arr = Json::array();
    for (const auto& e : value.elements) arr.push_back(scalar_json(type, type.kind, e));
    return arr;
  }
  Json arr = Json::array();
  for (const auto& [k, vals] : value.entries) {
    Json v;
    if (type.dict_of_arrays) {
      v = Json::array();
      for (const auto& x : vals) v.push_back(scalar_json(type, type.kind, x));
    } else {
      v = vals.empty() ? Json(nullptr) : scalar_json(type, type.kind, vals.front());
    }
    arr.push_back(Json::array({scalar_json(type, type.key_kind, k), std::move(v)}));
  }
  return arr;
}

namespace {

Json anchors_json(const MapContainer& container, const MapDefinition& m, const Project& project) {
  Json anchors = Json::array();
  for (std::size_t a : m.anchors) {
    const MapAnchor& anchor = container.anchors()[a];
    const ConfigSection& s = container.section(anchor.section);
    Json directives = Json::object();
    Json texts = Json::object();
    std::vector<const ConfigEntry*> props;
    for (const ConfigEntry& e : s.entries) {
      if (e.key == "$Name")
        directives[std::string(model_id::kDirectiveMapName)] = std::string(e.value);
      else if (e.key == "$Parent")
        directives[std::string(model_id::kDirectiveMapParent)] = std::string(e.value);
      else if (e.key.starts_with("$Text"))
        texts[std::string(e.key)] = std::string(e.value);
      else if (!e.key.starts_with("$") && !e.key.starts_with("_"))
        props.push_back(&e);
    }
    if (!texts.empty()) directives[std::string(model_id::kDirectiveMapText)] = std::move(texts);
    anchors.push_back(Json{{"section", model_id::kSectionProtoMap},
                           {"line", anchor.line},
                           {"named", anchor.named},
                           {"directives", std::move(directives)},
                           {"properties", properties_json("Map", props, project)}});
  }
  return anchors;
}

Json outputs_json(const MapDefinition& m) {
  return Json{m.name + ".fomap-bin-server", m.name + ".fomap-bin-client"};
}

Json structure_errors_json(const MapContainer& container) {
  Json errors = Json::array();
  for (const auto& e : container.structure_errors())
    errors.push_back(Json{{"code", e.code},
                          {"line", e.line},
                          {"section", e.section},
                          {"message", e.message},
                          {"rule", "map-format.rule.closed-section-set"}});
  return errors;
}

// Pretty JSON exactly as core::dump_json writes it (2-space indent, sorted keys, invalid UTF-8
// replaced), for a value that sits `depth` levels deep: its inner lines are indented further.
// A string never holds a raw newline (it is escaped), so every '\n' is structural.
void write_value(std::ostream& os, const Json& j, int depth) {
  const std::string text = j.dump(2, ' ', false, Json::error_handler_t::replace);
  const std::string pad(static_cast<std::size_t>(depth) * 2, ' ');
  std::size_t pos = 0;
  while (true) {
    const std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      os.write(text.data() + pos, static_cast<std::streamsize>(text.size() - pos));
      return;
    }
    os.write(text.data() + pos, static_cast<std::streamsize>(nl + 1 - pos));
    os << pad;
    pos = nl + 1;
  }
}

void write_indent(std::ostream& os, int depth) {
  for (int i = 0; i < depth; ++i) os << "  ";
}

// `"key": ` at `depth`.
void write_key(std::ostream& os, int depth, std::string_view key) {
  write_indent(os, depth);
  write_value(os, Json(std::string(key)), 0);
  os << ": ";
}

// An array at `depth` whose elements are made one at a time.
template <class Element>
void write_array(std::ostream& os, int depth, std::size_t n, const Element& element) {
  if (n == 0) {
    os << "[]";
    return;
  }
  os << "[\n";
  for (std::size_t i = 0; i < n; ++i) {
    write_indent(os, depth + 1);
    element(i);
    os << (i + 1 < n ? ",\n" : "\n");
  }
  write_indent(os, depth);
  os << ']';
}

}  // namespace

Json container_json(const MapContainer& container, const Project& project) {
  Json maps = Json::array();
  for (const MapDefinition& m : container.maps()) {
    Json critters = Json::array();
    for (const Placement& p : m.critters) critters.push_back(placement_json(container, p, project));
    Json items = Json::array();
    for (const Placement& p : m.items) items.push_back(placement_json(container, p, project));
    maps.push_back(Json{{"id", m.name},
                        {"anchors", anchors_json(container, m, project)},
                        {"critters", std::move(critters)},
                        {"items", std::move(items)},
                        {"outputs", outputs_json(m)}});
  }
  return Json{{"schema", kJsonModelSchema}, {"file", container.path()},
              {"stem", container.stem()},   {"loadable", container.loadable()},
              {"maps", std::move(maps)},    {"structure_errors", structure_errors_json(container)}};
}

void write_container_json(std::ostream& os, const MapContainer& container, const Project& project) {
  // Keys in the sorted order core::dump_json gives them.
  os << "{\n";
  write_key(os, 1, "file");
  write_value(os, Json(container.path()), 1);
  os << ",\n";
  write_key(os, 1, "loadable");
  write_value(os, Json(container.loadable()), 1);
  os << ",\n";
  write_key(os, 1, "maps");
  const auto& maps = container.maps();
  write_array(os, 1, maps.size(), [&](std::size_t i) {
    const MapDefinition& m = maps[i];
    os << "{\n";
    write_key(os, 3, "anchors");
    write_value(os, anchors_json(container, m, project), 3);
    os << ",\n";
    const auto placements = [&](std::string_view key, const std::vector<Placement>& list) {
      write_key(os, 3, key);
      write_array(os, 3, list.size(),
                  [&](std::size_t k) { write_value(os, placement_json(container, list[k], project), 4); });
      os << ",\n";
    };
    placements("critters", m.critters);
    write_key(os, 3, "id");
    write_value(os, Json(m.name), 3);
    os << ",\n";
    placements("items", m.items);
    write_key(os, 3, "outputs");
    write_value(os, outputs_json(m), 3);
    os << "\n";
    write_indent(os, 2);
    os << '}';
  });
  os << ",\n";
  write_key(os, 1, "schema");
  write_value(os, Json(std::string(kJsonModelSchema)), 1);
  os << ",\n";
  write_key(os, 1, "stem");
  write_value(os, Json(container.stem()), 1);
  os << ",\n";
  write_key(os, 1, "structure_errors");
  write_value(os, structure_errors_json(container), 1);
  os << "\n}\n";
}

}  // namespace sortie::fomap
