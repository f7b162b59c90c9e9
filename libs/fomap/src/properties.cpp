// Property catalog: engine table + project declarations (spec/fomap.md §5.1, §5.4).
#include "sortie/fomap/properties.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "engine_catalog.hpp"

namespace sortie::fomap {
namespace {

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t t = line.find('\t', pos);
    out.push_back(line.substr(pos, t == std::string_view::npos ? std::string_view::npos : t - pos));
    if (t == std::string_view::npos) break;
    pos = t + 1;
  }
  return out;
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

template <class F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t pos = 0;
  std::size_t line_no = 0;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_no;
    if (!line.empty()) f(line, line_no);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
}

ScalarKind scalar_kind(std::string_view t, const EnumTable& enums, std::string& enum_name) {
  struct Row {
    std::string_view name;
    ScalarKind kind;
  };
  static constexpr Row kRows[] = {
      {"int8", ScalarKind::int8},     {"int16", ScalarKind::int16},     {"int32", ScalarKind::int32},
      {"int64", ScalarKind::int64},   {"uint8", ScalarKind::uint8},     {"uint16", ScalarKind::uint16},
      {"uint32", ScalarKind::uint32}, {"uint64", ScalarKind::uint64},   {"float32", ScalarKind::float32},
      {"float", ScalarKind::float32}, {"float64", ScalarKind::float64}, {"double", ScalarKind::float64},
      {"bool", ScalarKind::boolean},  {"string", ScalarKind::string},   {"hstring", ScalarKind::hstring},
      {"ident", ScalarKind::ident},   {"ucolor", ScalarKind::ucolor},   {"mdir", ScalarKind::mdir},
      {"hdir", ScalarKind::uint8},    {"mpos", ScalarKind::mpos},       {"msize", ScalarKind::msize},
      {"ipos16", ScalarKind::ipos16}, {"ipos", ScalarKind::ipos},       {"ipos32", ScalarKind::ipos},
      {"isize", ScalarKind::isize},   {"isize32", ScalarKind::isize},   {"irect", ScalarKind::irect},
      {"irect32", ScalarKind::irect}, {"synctime", ScalarKind::time},   {"nanotime", ScalarKind::time},
      {"timespan", ScalarKind::time}, {"tick_t", ScalarKind::time},     {"any", ScalarKind::any},
  };
  for (const auto& r : kRows)
    if (r.name == t) return r.kind;
  if (enums.find(t) != enums.end()) {
    enum_name = std::string(t);
    return ScalarKind::enumeration;
  }
  return ScalarKind::unknown;
}

void add_engine_enums(EnumTable& enums) {
  enums["ItemOwnership"] = {{"MapHex", 0}, {"CritterInventory", 1}, {"ItemContainer", 2}, {"Nowhere", 3}};
  enums["CritterCondition"] = {{"Alive", 0}, {"Knockout", 1}, {"Dead", 2}};
  enums["CritterItemSlot"] = {{"Inventory", 0}, {"Main", 1}, {"Outside", 255}};
  enums["CornerType"] = {{"NorthSouth", 0}, {"West", 1}, {"East", 2}, {"South", 3}, {"North", 4}, {"EastWest", 5}};
  enums["MultihexGenerationType"] = {{"None", 0}, {"SameSibling", 1}, {"AnyUnique", 2}};
  // Engine enums whose engine-side values the fact sheet does not list (projects extend them,
  // e.g. TLA's table has only the project values of CritterActionAnim). They are "open": a
  // value name that is not in the table is accepted and kept as text (marker entry kOpenEnum).
  for (const char* open : {"CritterVisibilityMode", "CritterActionAnim", "CritterStateAnim"})
    enums[open][std::string(kOpenEnumMarker)] = kOpenEnumValue;
}

void add_engine_migrations(std::unordered_map<std::string, std::string>& m) {
  static constexpr std::string_view kRules[][3] = {
      {"Item", "ScriptId", "InitScript"},
      {"Item", "IsStatic", "Static"},
      {"Item", "Accessory", "Ownership"},
      {"Item", "CritId", "CritterId"},
      {"Item", "CritSlot", "CritterSlot"},
      {"Item", "Slot", "CritterSlot"},
      {"Item", "SubItemIds", "InnerItemIds"},
      {"Item", "BlockLines", "MultihexLines"},
      {"Item", "IsHidden", "Hidden"},
      {"Item", "IsHiddenPicture", "AlwaysHideSprite"},
      {"Item", "IsNoBlock", "NoBlock"},
      {"Item", "IsShootThru", "ShootThru"},
      {"Item", "IsLightThru", "LightThru"},
      {"Item", "IsLight", "LightSource"},
      {"Item", "SceneryScript", "StaticScript"},
      {"Item", "IsFlat", "DrawFlatten"},
      {"Item", "IsNoHighlight", "NoHighlight"},
      {"Item", "IsNoLightInfluence", "NoLightInfluence"},
      {"Item", "IsColorize", "Colorize"},
      {"Critter", "ScriptId", "InitScript"},
      {"Critter", "IsControlledByPlayer", "ControlledByPlayer"},
      {"Critter", "Cond", "Condition"},
      {"Critter", "IsNoFlatten", "DeadDrawNoFlatten"},
      {"Map", "ScriptId", "InitScript"},
      {"Map", "CurDayTime", "FixedDayTime"},
      {"Map", "DayTime", "DayColorTime"},
      {"Location", "ScriptId", "InitScript"},
  };
  for (const auto& r : kRules) m[std::string(r[0]) + "." + std::string(r[1])] = std::string(r[2]);
}

}  // namespace

int PropertyType::fields() const {
  switch (kind) {
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
    case ScalarKind::ipos:
    case ScalarKind::isize:
      return 2;
    case ScalarKind::irect:
      return 4;
    default:
      return 1;
  }
}

PropertyType parse_property_type(std::string_view text, const EnumTable& enums) {
  PropertyType t;
  t.text = std::string(text);
  const std::size_t arrow = text.find("=>");
  if (arrow != std::string_view::npos) {
    t.container = Container::dict;
    std::string key_enum;
    t.key_kind = scalar_kind(text.substr(0, arrow), enums, key_enum);
    std::string_view value = text.substr(arrow + 2);
    if (value.size() > 2 && value.substr(value.size() - 2) == "[]") {
      t.dict_of_arrays = true;
      value.remove_suffix(2);
    }
    t.kind = scalar_kind(value, enums, t.enum_name);
    if (t.enum_name.empty()) t.enum_name = key_enum;
    return t;
  }
  if (text.size() > 2 && text.substr(text.size() - 2) == "[]") {
    t.container = Container::array;
    text.remove_suffix(2);
  }
  t.kind = scalar_kind(text, enums, t.enum_name);
  return t;
}

PropertyCatalog PropertyCatalog::engine() {
  PropertyCatalog c;
  add_engine_enums(c.enums_);
  add_engine_migrations(c.property_migration_);
  for (const auto& e : detail::engine_properties()) {
    PropertyInfo info;
    info.entity = std::string(e.receiver);
    info.name = std::string(e.name);
    info.type = parse_property_type(e.type, c.enums_);
    info.origin = PropertyOrigin::engine;
    info.authorable = e.authorable;
    info.excluded_reason = std::string(e.excluded_reason);
    info.server_only = e.server_only;
    info.client_only = e.client_only;
    info.resource = e.resource;
    info.nullable = e.nullable;
    info.script_func = std::string(e.script_func);
    c.add(std::move(info));
  }
  return c;
}

void PropertyCatalog::add(PropertyInfo info) {
  std::string key = info.entity + "." + info.name;
  auto& slot = props_[key];
  slot = std::move(info);
  index_[std::move(key)] = &slot;
}

namespace {
// "Entity.Name" in a reused buffer (lookups happen once per map key; no allocation).
const std::string& dotted(std::string_view entity, std::string_view name) {
  thread_local std::string buf;
  buf.clear();
  buf.append(entity).append(1, '.').append(name);
  return buf;
}
}  // namespace

core::Diagnostics PropertyCatalog::add_project_declarations(std::string_view tsv, std::string_view file_name) {
  core::Diagnostics out;
  has_project_ = true;
  for_each_line(tsv, [&](std::string_view line, std::size_t line_no) {
    auto cols = split_tabs(line);
    if (line_no == 1 && !cols.empty() && cols[0] == "entity") return;  // header row
    if (cols.size() < 4) {
      out.push_back(
          core::Diagnostic::warning("fomap.catalog.declaration", "declaration row needs entity, side, type, name")
              .of(std::string(file_name))
              .in("line " + std::to_string(line_no))
              .expect(">= 4 tab-separated columns", std::to_string(cols.size())));
      return;
    }
    PropertyInfo info;
    info.entity = std::string(cols[0]);
    info.name = std::string(cols[3]);
    info.type = parse_property_type(cols[2], enums_);
    info.origin = PropertyOrigin::project;
    info.server_only = cols[1] == "Server";
    info.client_only = cols[1] == "Client";
    bool is_virtual = false, is_mutable = false, persistent = false, core_prop = false;
    if (cols.size() > 4) {
      const auto words = split_words(cols[4]);
      for (std::size_t i = 0; i + 2 < words.size(); ++i)  // `ScriptFuncType = ItemStatic`, as in the engine JSON
        if (words[i] == "ScriptFuncType" && words[i + 1] == "=") info.script_func = std::string(words[i + 2]);
      for (auto w : words) {
        info.flags.emplace_back(w);
        if (w == "Virtual")
          is_virtual = true;
        else if (w == "Mutable")
          is_mutable = true;
        else if (w == "Persistent")
          persistent = true;
        else if (w == "CoreProperty")
          core_prop = true;
        else if (w == "Resource")
          info.resource = true;
        else if (w == "Nullable")
          info.nullable = true;
      }
    }
    if (is_virtual) {
      info.authorable = false;
      info.excluded_reason = "virtual";
    } else if ((is_mutable || core_prop) && !persistent) {
      info.authorable = false;
      info.excluded_reason = "temporary";
    }
    add(std::move(info));
  });
  return out;
}

core::Diagnostics PropertyCatalog::add_project_enums(std::string_view tsv, std::string_view file_name) {
  core::Diagnostics out;
  for_each_line(tsv, [&](std::string_view line, std::size_t line_no) {
    auto cols = split_tabs(line);
    if (line_no == 1 && !cols.empty() && cols[0] == "enum") return;
    std::int64_t value = 0;
    if (cols.size() < 3 || std::from_chars(cols[2].data(), cols[2].data() + cols[2].size(), value).ec != std::errc()) {
      out.push_back(core::Diagnostic::warning("fomap.catalog.enum", "enum row needs enum, value name, integer value")
                        .of(std::string(file_name))
                        .in("line " + std::to_string(line_no)));
      return;
    }
    enums_[std::string(cols[0])][std::string(cols[1])] = value;
  });
  // Types declared before their enum was known are re-typed.
  for (auto& [key, info] : props_) {
    if (info.type.kind == ScalarKind::unknown || info.type.key_kind == ScalarKind::unknown)
      info.type = parse_property_type(info.type.text, enums_);
  }
  return out;
}

core::Diagnostics PropertyCatalog::add_migration_rules(std::string_view tsv, std::string_view file_name) {
  core::Diagnostics out;
  for_each_line(tsv, [&](std::string_view line, std::size_t line_no) {
    if (line_no == 1 && line.substr(0, 4) == "rule") return;
    auto words = split_words(line);
    if (words.size() < 3) {
      out.push_back(core::Diagnostic::warning("fomap.catalog.migration", "migration rule needs a kind and arguments")
                        .of(std::string(file_name))
                        .in("line " + std::to_string(line_no)));
      return;
    }
    if (words[0] == "Property" && words.size() >= 4) {
      property_migration_[std::string(words[1]) + "." + std::string(words[2])] = std::string(words[3]);
    } else if (words[0] == "Proto" && words.size() >= 4) {
      proto_migration_[std::string(words[1]) + "." + std::string(words[2])] =
          words[3] == "Remove" ? std::string() : std::string(words[3]);
    } else if (words[0] == "Enum" && words.size() >= 4) {
      enum_migration_[std::string(words[1]) + "." + std::string(words[2])] = std::string(words[3]);
    } else {
      out.push_back(core::Diagnostic::warning("fomap.catalog.migration", "unknown migration rule kind")
                        .of(std::string(file_name))
                        .in("line " + std::to_string(line_no))
                        .expect("Property, Proto or Enum", std::string(words[0])));
    }
  });
  return out;
}

core::Status PropertyCatalog::load_engine_json(std::string_view json_text, std::string_view file_name) {
  auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.contains("properties") || !j["properties"].is_array())
    return core::fail(
        core::Diagnostic::error("fomap.catalog.json", "not a map-format canonical JSON (no properties array)")
            .of(std::string(file_name)));
  for (auto it = props_.begin(); it != props_.end();) {
    if (it->second.origin == PropertyOrigin::engine) {
      index_.erase(it->first);
      it = props_.erase(it);
    } else {
      ++it;
    }
  }
  for (const auto& p : j["properties"]) {
    if (!p.is_object() || !p.contains("receiver") || !p.contains("name") || !p.contains("type")) continue;
    PropertyInfo info;
    info.entity = p["receiver"].get<std::string>();
    info.name = p["name"].get<std::string>();
    info.type = parse_property_type(p["type"].get<std::string>(), enums_);
    info.authorable = p.value("authorable", true);
    if (p.contains("excluded_reason") && p["excluded_reason"].is_string())
      info.excluded_reason = p["excluded_reason"].get<std::string>();
    info.nullable = p.value("nullable", false);
    if (p.contains("runtime_sides") && p["runtime_sides"].is_array()) {
      const auto& sides = p["runtime_sides"];
      info.server_only = sides.size() == 1 && sides[0] == "server";
    }
    if (p.contains("skipped_sides") && p["skipped_sides"].is_array())
      for (const auto& s : p["skipped_sides"])
        if (s == "server") info.client_only = true;
    if (p.contains("flags") && p["flags"].is_array()) {
      std::vector<std::string> flags;
      for (const auto& f : p["flags"])
        if (f.is_string()) flags.push_back(f.get<std::string>());
      for (std::size_t i = 0; i < flags.size(); ++i) {
        if (flags[i] == "Resource") info.resource = true;
        if (flags[i] == "ScriptFuncType" && i + 2 < flags.size()) info.script_func = flags[i + 2];
      }
      info.flags = std::move(flags);
    }
    add(std::move(info));
  }
  return {};
}

std::string_view PropertyCatalog::migrate_property(std::string_view entity, std::string_view name) const {
  auto it = property_migration_.find(dotted(entity, name));
  return it == property_migration_.end() ? name : std::string_view(it->second);
}

const PropertyInfo* PropertyCatalog::find(std::string_view entity, std::string_view name) const {
  auto it = index_.find(dotted(entity, name));
  if (it != index_.end()) return it->second;
  const std::string_view migrated = migrate_property(entity, name);
  if (migrated == name) return nullptr;
  it = index_.find(dotted(entity, migrated));
  return it == index_.end() ? nullptr : it->second;
}

std::optional<std::string_view> PropertyCatalog::migrate_proto(std::string_view type, std::string_view name) const {
  if (proto_migration_.empty()) return std::nullopt;
  auto it = proto_migration_.find(std::string(type) + "." + std::string(name));
  if (it == proto_migration_.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::optional<std::string_view> PropertyCatalog::migrate_enum(std::string_view enum_name,
                                                              std::string_view value) const {
  if (enum_migration_.empty()) return std::nullopt;
  auto it = enum_migration_.find(std::string(enum_name) + "." + std::string(value));
  if (it == enum_migration_.end()) return std::nullopt;
  return std::string_view(it->second);
}

}  // namespace sortie::fomap
