// Classic SDK maps ([Header] / [Tiles] / [Objects]) -> current nested format (spec/fomap.md §14).
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>

#include "migrate_internal.hpp"
#include "sortie/fomap/config.hpp"
#include "sortie/fomap/map_model.hpp"

namespace sortie::fomap::migrate_detail {
namespace {

// Whitespace-separated words of a line.
std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
    const std::size_t b = i;
    while (i < s.size() && !(s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::optional<std::int64_t> to_int(std::string_view s) {
  std::int64_t v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::string slashes(std::string_view path) {
  std::string s(path);
  std::replace(s.begin(), s.end(), '\\', '/');
  return s;
}

// "ST_DIALOG_ID" -> "DialogId".
std::string camel_param(std::string_view name) {
  if (name.starts_with("ST_")) name.remove_prefix(3);
  std::string out;
  bool upper = true;
  for (const char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? (c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c)
                 : (c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c);
    upper = false;
  }
  return out;
}

struct Object {
  std::uint32_t line = 0;
  std::vector<std::pair<std::string_view, std::string_view>> keys;  // key, rest of line (trimmed)
  std::vector<std::uint32_t> lines;                                 // line of each key
  [[nodiscard]] std::uint32_t line_of(std::string_view k) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i].first == k) return lines[i];
    return line;
  }
  [[nodiscard]] std::string_view get(std::string_view k) const {
    for (const auto& [key, v] : keys)
      if (key == k) return v;
    return {};
  }
  [[nodiscard]] bool has(std::string_view k) const {
    return std::any_of(keys.begin(), keys.end(), [&](const auto& p) { return p.first == k; });
  }
};

struct Placement {
  int type = 1;  // 0 critter, 1 item, 2 scenery
  std::uint32_t line = 0;
  KeyMap keys;
  std::string uid;
  std::string container_uid;
  std::int64_t id = 0;
  std::vector<std::size_t> children;
  bool is_child = false;
};

const std::set<std::string_view> kObjectCommon = {
    "MapObjType", "ProtoId", "ProtoName", "MapX",    "MapY",           "UID",           "ContainerUID", "ScriptName",
    "FuncName",   "Dir",     "OffsetX",   "OffsetY", "LightIntensity", "LightDistance", "LightColor"};

}  // namespace

namespace {

// The `$Proto` of a classic object named by `ProtoName` (see MigrateOptions::protos).
core::Result<std::string> proto_by_name(const Object& o, int type, std::string_view path, const MigrateOptions& options,
                                        const PropertyCatalog& catalog) {
  const std::string_view kind = type == 0 ? "Critter" : "Item";
  const std::string_view name = o.get("ProtoName");
  const std::string map = options.map_name.empty() ? file_stem(path) : options.map_name;
  const auto refuse = [&](std::string message) {
    return core::fail(core::Diagnostic::error("fomap.migrate.proto_name", std::move(message))
                          .of(std::string(path))
                          .in(fmt::format("map {}, line {}", map, o.line_of("ProtoName")))
                          .expect(fmt::format("the name of a {} prototype", kind), std::string(name)));
  };
  if (!options.protos)
    return refuse("classic ProtoName can only be mapped to a prototype through the project's protos (--protos)");
  if (options.protos->find(kind, name)) return std::string(name);
  if (auto migrated = catalog.migrate_proto(kind, name); migrated && options.protos->find(kind, *migrated))
    return std::string(*migrated);
  return refuse(fmt::format("classic ProtoName names no {} prototype of the project", kind));
}

}  // namespace

namespace {

// The three sections of a classic map as read.
struct ClassicMap {
  std::map<std::string, std::pair<std::string, std::uint32_t>, std::less<>> header;  // key -> (value, line)
  std::vector<Object> objects;
  std::vector<Placement> tiles;
};

// A [Tiles] line `kind x y [layer] path` as a tile or roof item; nullopt (with a loss) when it
// cannot be carried.
std::optional<Placement> tile_placement(const std::vector<std::string_view>& w, std::uint32_t line,
                                        const MigrateOptions& options, LossLog& losses) {
  if (w.size() < 4) {
    losses.add("fomap.migrate.tile_line", "", "tile line without kind, x, y and path", line);
    return std::nullopt;
  }
  const std::string_view kind = w[0];
  const bool roof = kind.starts_with("roof");
  const std::string& proto = roof ? options.roof_proto : options.tile_proto;
  if (proto.empty()) {
    losses.add("fomap.migrate.tile", std::string(kind),
               "classic tiles have no current equivalent without a tile proto (--tile-proto / --roof-proto)", line);
    return std::nullopt;
  }
  Placement p;
  p.type = 1;
  p.line = line;
  p.keys["$Proto"] = proto;
  p.keys["Hex"] = fmt::format("{} {}", w[1], w[2]);
  p.keys["PicMap"] = slashes(w.back());
  if (w.size() >= 5) p.keys["TileLayer"] = std::string(w[3]);
  if (kind != "tile" && kind != "roof" && kind != "tile_l")
    losses.add("fomap.migrate.tile_kind", std::string(kind), "tile kind carried as a plain tile/roof item", line);
  return p;
}

ClassicMap read_classic(std::string_view text, const MigrateOptions& options, LossLog& losses) {
  ClassicMap map;
  std::string_view section;
  bool in_block = false;
  for (const Line& line : split_lines(text)) {
    if (const auto h = parse_header(line.text)) {
      section = h->name;
      in_block = false;
      if (section != "Header" && section != "Tiles" && section != "Objects")
        losses.add("fomap.migrate.section", std::string(section), "section kind not known to the classic format",
                   line.number);
      continue;
    }
    const auto w = words(line.text);
    if (w.empty()) {
      in_block = false;
      continue;
    }
    if (section == "Header") {
      std::string value;
      for (std::size_t i = 1; i < w.size(); ++i) value += (i > 1 ? " " : "") + std::string(w[i]);
      map.header[std::string(w[0])] = {value, line.number};
    } else if (section == "Tiles") {
      if (auto tile = tile_placement(w, line.number, options, losses)) map.tiles.push_back(std::move(*tile));
    } else if (section == "Objects") {
      if (w[0] == "MapObjType" || !in_block) {
        map.objects.push_back(Object{line.number, {}, {}});
        in_block = true;
      }
      const std::string_view t = trim_line(line.text);
      const std::string_view rest = trim_line(t.substr(w[0].size()));
      map.objects.back().keys.emplace_back(w[0], rest);
      map.objects.back().lines.push_back(line.number);
    } else {
      losses.add("fomap.migrate.preamble", "", "text outside [Header]/[Tiles]/[Objects]; not carried", line.number);
    }
  }
  return map;
}

// The [ProtoMap] keys from the classic [Header].
KeyMap classic_anchor(ClassicMap& map, const MigrateOptions& options, LossLog& losses) {
  auto& header = map.header;
  KeyMap anchor;
  auto hget = [&](std::string_view k) -> std::string {
    auto it = header.find(k);
    return it == header.end() ? std::string() : it->second.first;
  };
  auto pair_or_zero = [&](std::string_view kx, std::string_view ky) {
    return fmt::format("{} {}", hget(kx).empty() ? "0" : hget(kx), hget(ky).empty() ? "0" : hget(ky));
  };
  const std::set<std::string_view> used_header = {"MaxHexX",      "MaxHexY",    "WorkHexX",  "WorkHexY",  "DayTime",
                                                  "DayColor0",    "DayColor1",  "DayColor2", "DayColor3", "Time",
                                                  "ScriptModule", "ScriptFunc", "NoLogOut",  "Version"};
  if (!options.map_name.empty()) anchor["$Name"] = options.map_name;
  if (header.count("MaxHexX") || header.count("MaxHexY")) anchor["Size"] = pair_or_zero("MaxHexX", "MaxHexY");
  if (header.count("WorkHexX") || header.count("WorkHexY")) anchor["WorkHex"] = pair_or_zero("WorkHexX", "WorkHexY");
  if (!hget("DayTime").empty()) anchor["DayColorTime"] = hget("DayTime");
  {
    // DayColorN = R G B of time N; current DayColor = R0..R3 G0..G3 B0..B3.
    std::vector<std::vector<std::string_view>> rgb;
    std::vector<std::string> store;
    store.reserve(4);
    for (int i = 0; i < 4; ++i) store.push_back(hget(fmt::format("DayColor{}", i)));
    bool ok = true;
    for (const auto& s : store) {
      rgb.push_back(words(s));
      ok = ok && rgb.back().size() == 3;
    }
    if (ok) {
      std::string dc;
      for (int c = 0; c < 3; ++c)
        for (int t = 0; t < 4; ++t)
          dc += (dc.empty() ? "" : " ") + std::string(rgb[static_cast<std::size_t>(t)][static_cast<std::size_t>(c)]);
      anchor["DayColor"] = dc;
    } else if (header.count("DayColor0")) {
      losses.add("fomap.migrate.header_key", "DayColor", "DayColor0..3 are not four R G B triples",
                 header["DayColor0"].second);
    }
  }
  if (const std::string t = hget("Time"); !t.empty() && t != "0") anchor["FixedDayTime"] = t;
  if (const std::string m = hget("ScriptModule"), f = hget("ScriptFunc");
      !m.empty() && !f.empty() && m != "-" && f != "-")
    anchor["InitScript"] = fmt::format("{}::{}", m, f);
  if (const std::string n = hget("NoLogOut"); !n.empty() && n != "0") anchor["NoLogOut"] = "True";
  if (const std::string v = hget("Version"); !v.empty() && v != "4")
    losses.add("fomap.migrate.header_version", v, "classic header version other than 4; converted as version 4",
               header["Version"].second);
  for (const auto& [k, v] : header)
    if (!used_header.count(k))
      losses.add("fomap.migrate.header_key", k, "classic header key without a current equivalent", v.second);
  return anchor;
}

// `$Proto`: by ProtoName, else the numeric ProtoId through the name mapping, else its text.
core::Status object_proto(const Object& o, Placement& p, std::string_view path, const MigrateOptions& options,
                          const PropertyCatalog& catalog, LossLog& losses) {
  const std::string_view pid_text = o.get("ProtoId");
  const auto pid = to_int(pid_text);
  if (o.has("ProtoName")) {
    SORTIE_TRY(p.keys["$Proto"], proto_by_name(o, p.type, path, options, catalog));
  } else if (pid && options.proto_names.count(*pid)) {
    p.keys["$Proto"] = options.proto_names.at(*pid);
  } else if (!pid_text.empty()) {
    p.keys["$Proto"] = std::string(pid_text);
    losses.add("fomap.migrate.proto_pid", p.type == 0 ? "critter" : "item",
               "classic numeric ProtoId written as the $Proto text (no proto name mapping given)", o.line);
  } else {
    return core::fail(
        core::Diagnostic::error("fomap.migrate.proto_name", "classic object has neither ProtoId nor ProtoName")
            .of(std::string(path))
            .in(fmt::format("map {}, line {}", options.map_name.empty() ? file_stem(path) : options.map_name, o.line))
            .expect("ProtoId <pid> or ProtoName <name>", "no proto"));
  }
  return {};
}

// The keys every object kind has: hex, container link, offset, light, script.
void common_object_keys(const Object& o, Placement& p, LossLog& losses) {
  if (o.has("MapX") || o.has("MapY"))
    p.keys["Hex"] = fmt::format("{} {}", o.has("MapX") ? o.get("MapX") : "0", o.has("MapY") ? o.get("MapY") : "0");
  else
    losses.add("fomap.migrate.object_no_hex", "MapX", "object without MapX/MapY: Hex left to the proto", o.line);
  p.uid = std::string(o.get("UID"));
  p.container_uid = std::string(o.get("ContainerUID"));
  if (p.container_uid == "0") p.container_uid.clear();
  if (o.has("OffsetX") || o.has("OffsetY"))
    p.keys["Offset"] =
        fmt::format("{} {}", o.has("OffsetX") ? o.get("OffsetX") : "0", o.has("OffsetY") ? o.get("OffsetY") : "0");
  for (const std::string_view k : {"LightIntensity", "LightDistance", "LightColor"})
    if (o.has(k)) p.keys[std::string(k)] = std::string(o.get(k));
  const std::string_view script = o.get("ScriptName");
  const std::string_view func = o.get("FuncName");
  if (!script.empty() && !func.empty())
    p.keys[p.type == 2 ? "StaticScript" : "InitScript"] = fmt::format("{}::{}", script, func);
  else if (!script.empty() || !func.empty())
    losses.add("fomap.migrate.object_key", script.empty() ? "FuncName" : "ScriptName",
               "script module without function (or the reverse); not carried", o.line);
}

// A critter's direction, condition and ST_ parameters.
void critter_keys(const Object& o, Placement& p, LossLog& losses) {
  if (o.has("Dir")) {
    const auto d = to_int(o.get("Dir"));
    if (d && *d >= 0 && *d < 6)
      p.keys["Dir"] = std::to_string(*d * 60 + 30);
    else
      losses.add("fomap.migrate.object_key", "Dir", "critter direction outside 0..5; not carried", o.line);
  }
  const std::string_view cond = o.get("Critter_Cond");
  if (cond == "2")
    p.keys["Condition"] = "Knockout";
  else if (cond == "3")
    p.keys["Condition"] = "Dead";
  else if (!cond.empty() && cond != "1" && cond != "0")
    losses.add("fomap.migrate.object_key", "Critter_Cond", "unknown classic critter condition; not carried", o.line);
  for (int i = 0; i < 64; ++i) {
    const std::string ik = fmt::format("Critter_ParamIndex{}", i);
    if (!o.has(ik)) continue;
    const std::string_view name = o.get(ik);
    const std::string_view value = o.get(fmt::format("Critter_ParamValue{}", i));
    if (name.starts_with("ST_") && !value.empty())
      p.keys[camel_param(name)] = std::string(value);
    else
      losses.add("fomap.migrate.critter_param", std::string(name),
                 "critter parameter without a property name; not carried", o.line);
  }
}

// An item's count, ammo and slot.
void item_keys(const Object& o, Placement& p, LossLog& losses) {
  if (o.has("Item_Count")) p.keys["Count"] = std::string(o.get("Item_Count"));
  if (o.has("Item_AmmoCount")) p.keys["AmmoCount"] = std::string(o.get("Item_AmmoCount"));
  if (o.has("Item_ItemSlot")) {
    const std::string_view slot = o.get("Item_ItemSlot");
    if (slot == "1")
      p.keys["CritterSlot"] = "Main";
    else if (slot == "2")
      p.keys["CritterSlot"] = "Secondary";
    else if (slot != "0")
      losses.add("fomap.migrate.object_key", "Item_ItemSlot", "classic slot without a current name; not carried",
                 o.line);
  }
}

// Every key of the object that nothing above carried is a loss.
void report_uncarried_keys(const Object& o, const Placement& p, LossLog& losses) {
  for (const auto& [k, v] : o.keys) {
    if (k == "Dir" && p.type != 0) {
      losses.add("fomap.migrate.object_key", "Dir", "direction of an item/scenery object has no current equivalent",
                 o.line);
      continue;
    }
    if (kObjectCommon.count(k) || k == "Critter_Cond" || k.starts_with("Critter_Param") || k == "Item_Count" ||
        k == "Item_AmmoCount" || k == "Item_ItemSlot")
      continue;
    losses.add("fomap.migrate.object_key", std::string(k), "classic object key without a current equivalent",
               o.line_of(k));
  }
}

// A classic object as a placement; nullopt (with a loss) for an unknown MapObjType.
core::Result<std::optional<Placement>> object_placement(const Object& o, std::string_view path,
                                                        const MigrateOptions& options, const PropertyCatalog& catalog,
                                                        LossLog& losses) {
  Placement p;
  p.line = o.line;
  const auto type = to_int(o.get("MapObjType"));
  if (!type || *type < 0 || *type > 2) {
    losses.add("fomap.migrate.object_type", std::string(o.get("MapObjType")),
               "object with unknown MapObjType; not carried", o.line);
    return std::optional<Placement>();
  }
  p.type = static_cast<int>(*type);
  SORTIE_CHECK(object_proto(o, p, path, options, catalog, losses));
  common_object_keys(o, p, losses);
  if (p.type == 0)
    critter_keys(o, p, losses);
  else if (p.type == 1)
    item_keys(o, p, losses);
  report_uncarried_keys(o, p, losses);
  return std::optional<Placement>(std::move(p));
}

// Ownership through UID / ContainerUID: marks children and lists them at their owner; returns
// the placement of each UID.
std::map<std::string, std::size_t, std::less<>> link_containers(std::vector<Placement>& placements, LossLog& losses) {
  std::map<std::string, std::size_t, std::less<>> by_uid;
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (!placements[i].uid.empty() && placements[i].uid != "0") by_uid.emplace(placements[i].uid, i);
  for (std::size_t i = 0; i < placements.size(); ++i) {
    Placement& p = placements[i];
    if (p.container_uid.empty()) continue;
    auto it = by_uid.find(p.container_uid);
    if (it == by_uid.end() || it->second == i || placements[it->second].type == 2) {
      losses.add("fomap.migrate.container_uid", p.container_uid,
                 "ContainerUID names no critter or item of this map: placed on its hex instead", p.line);
      continue;
    }
    p.is_child = true;
    placements[it->second].children.push_back(i);
  }
  for (const Placement& p : placements)
    if (p.is_child && !p.children.empty())
      losses.add("fomap.migrate.nested_child", p.uid,
                 "item inside an item that is itself inside something: "
                 "the engine materializes one level only",
                 p.line, p.children.size());
  return by_uid;
}

// Output order: critters each followed by inventory, then map items each followed by children;
// a ContainerUID cycle is broken by placing its members on their hexes.
std::vector<std::size_t> output_order(std::vector<Placement>& placements, LossLog& losses) {
  std::vector<std::size_t> order;
  std::vector<bool> emitted(placements.size(), false);
  auto emit = [&](auto&& self, std::size_t i) -> void {
    if (emitted[i]) return;
    emitted[i] = true;
    order.push_back(i);
    for (std::size_t c : placements[i].children) self(self, c);
  };
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (placements[i].type == 0 && !placements[i].is_child) emit(emit, i);
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (placements[i].type != 0 && !placements[i].is_child) emit(emit, i);
  for (std::size_t i = 0; i < placements.size(); ++i)
    if (!emitted[i]) {  // a cycle of ContainerUIDs
      losses.add("fomap.migrate.container_cycle", placements[i].uid, "ContainerUID cycle: placed on its hex",
                 placements[i].line);
      placements[i].is_child = false;
      emit(emit, i);
    }
  return order;
}

// A child's Ownership and owner id in place of its hex; a slot outside an inventory is a loss.
void set_ownership(Placement& p, const std::vector<Placement>& placements,
                   const std::map<std::string, std::size_t, std::less<>>& by_uid, LossLog& losses) {
  if (p.is_child) {
    const Placement& owner = placements[by_uid.at(p.container_uid)];
    p.keys.erase("Hex");
    if (owner.type == 0) {
      p.keys["Ownership"] = "CritterInventory";
      p.keys["CritterId"] = std::to_string(owner.id);
    } else {
      p.keys["Ownership"] = "ItemContainer";
      p.keys["ContainerId"] = std::to_string(owner.id);
    }
  } else if (p.keys.erase("CritterSlot") > 0) {
    losses.add("fomap.migrate.object_key", "Item_ItemSlot", "slot of an item that is not in a critter inventory",
               p.line);
  }
}

}  // namespace

core::Result<MigrationResult> migrate_classic(std::string_view text, std::string_view path,
                                              const MigrateOptions& options) {
  const PropertyCatalog& catalog = target_catalog(options);
  MigrationResult res;
  res.from = LegacyFormat::classic;
  LossLog losses;
  ClassicMap map = read_classic(text, options, losses);
  KeyMap anchor = classic_anchor(map, options, losses);

  std::vector<Placement> placements;
  placements.reserve(map.objects.size());
  for (const Object& o : map.objects) {
    SORTIE_TRY(auto p, object_placement(o, path, options, catalog, losses));
    if (p) placements.push_back(std::move(*p));
  }
  const auto by_uid = link_containers(placements, losses);
  const auto order = output_order(placements, losses);
  std::int64_t next_id = 1;
  for (std::size_t i : order) placements[i].id = next_id++;
  for (Placement& t : map.tiles) t.id = next_id++;

  keep_known(anchor, "Map", catalog, losses, 1);
  write_section(res.text, "ProtoMap", anchor);
  for (std::size_t i : order) {
    Placement& p = placements[i];
    p.keys["$Id"] = std::to_string(p.id);
    set_ownership(p, placements, by_uid, losses);
    keep_known(p.keys, p.type == 0 ? "Critter" : "Item", catalog, losses, p.line);
    (p.type == 0 ? res.critters : res.items) += 1;
    write_section(res.text, p.type == 0 ? "$Name/Critter" : "$Name/Item", p.keys);
  }
  for (Placement& t : map.tiles) {
    t.keys["$Id"] = std::to_string(t.id);
    keep_known(t.keys, "Item", catalog, losses, t.line);
    ++res.items;
    write_section(res.text, "$Name/Item", t.keys);
  }
  res.losses = losses.take();
  return res;
}

}  // namespace sortie::fomap::migrate_detail
