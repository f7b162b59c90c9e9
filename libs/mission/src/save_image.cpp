// A save's world image: assembly, comparison entry by entry, shape checks and the summary.
#include "sortie/mission/save_image.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>

#include "sortie/assets/mission_data.hpp"
#include "sortie/mission/limits.hpp"
#include "sortie/scenario/runtime.hpp"
#include "sortie/world/world.hpp"
#include "sortie/world/world_image.hpp"

namespace sortie::mission {

namespace {

using core::Json;

// [x, y] / [x, y, z]: a position or a vector is one entry, shown "(x, y, z)".
bool is_scalar_vector(const Json& j) {
  return j.is_array() && !j.empty() && j.size() <= 4 &&
         std::all_of(j.begin(), j.end(), [](const Json& e) { return e.is_number(); });
}

std::string show(const Json& j) {
  if (is_scalar_vector(j)) {
    std::string out = "(";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + j[i].dump();
    return out + ")";
  }
  std::string text = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 160) text = text.substr(0, 157) + "...";
  return text;
}

bool same_kind(const Json& a, const Json& b) {
  return (a.is_number() && b.is_number()) || a.type() == b.type();
}

struct Difference {
  std::string path;
  Json saved;
  Json loaded;
};

// The first difference below `a` / `b`, its path appended to `path` (".key", "[i]", " (unit …)").
bool diff(const Json& a, const Json& b, const std::string& path, Difference& out) {
  if (a == b) return false;
  if (!same_kind(a, b) || is_scalar_vector(a) || (!a.is_array() && !a.is_object())) {
    out = Difference{path, a, b};
    return true;
  }
  if (a.is_object()) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : a.items()) keys.push_back(k);
    for (const auto& [k, v] : b.items())
      if (!a.contains(k)) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    for (const std::string& k : keys) {
      const std::string sub = path.empty() ? k : path + (path.back() == ')' ? " " : ".") + k;
      if (!a.contains(k) || !b.contains(k)) {
        out = Difference{sub, a.contains(k) ? a[k] : Json(), b.contains(k) ? b[k] : Json()};
        return true;
      }
      if (diff(a[k], b[k], sub, out)) return true;
    }
    return false;
  }
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    std::string sub = fmt::format("{}[{}]", path, i);
    if (a[i].is_object() && a[i].contains("unit") && a[i]["unit"].is_string())
      sub += fmt::format(" (unit 0x{})", a[i]["unit"].get<std::string>());
    if (diff(a[i], b[i], sub, out)) return true;
  }
  out = Difference{path + ".length", a.size(), b.size()};
  return true;
}

std::string sentence(const std::string& where, const Difference& d) {
  const std::string at = d.path.empty() ? where : (where.empty() ? d.path : where + " " + d.path);
  return fmt::format("{}: saved {} vs loaded {}", at, show(d.saved), show(d.loaded));
}

const Json& member(const Json& j, const char* key) {
  static const Json kNull;
  return j.is_object() && j.contains(key) ? j[key] : kNull;
}

std::string object_name(const Json& object, const ClanNamer& clans) {
  std::string name = fmt::format("object 0x{}", object[0].get<std::string>());
  const Json& props = object[10];
  for (const Json& p : props) {
    if (p.size() == 3 && p[0] == "clan" && p[2].is_number_integer()) {
      const std::int64_t clan = p[2].get<std::int64_t>();
      const std::string clan_name = clans ? clans(clan) : std::string();
      name += clan_name.empty() ? fmt::format(" (clan {})", clan) : fmt::format(" (clan {})", clan_name);
    }
  }
  return name;
}

std::optional<std::string> objects_difference(const Json& saved, const Json& loaded, const ClanNamer& clans) {
  const Json& fields = member(saved, "object_fields");
  const Json& a = member(saved, "objects");
  const Json& b = member(loaded, "objects");
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] == b[i]) continue;
    if (a[i][0] != b[i][0])
      return fmt::format("world objects[{}]: saved object 0x{} vs loaded object 0x{}", i, a[i][0].get<std::string>(),
                         b[i][0].get<std::string>());
    for (std::size_t f = 1; f < a[i].size(); ++f) {
      Difference d;
      if (diff(a[i][f], b[i][f], fields[f].get<std::string>(), d)) return sentence(object_name(a[i], clans), d);
    }
  }
  if (a.size() != b.size())
    return fmt::format("world object count: saved {} vs loaded {}{}", a.size(), b.size(),
                       a.size() > b.size() ? fmt::format(" (first missing: 0x{})", a[b.size()][0].get<std::string>())
                                           : fmt::format(" (first extra: 0x{})", b[a.size()][0].get<std::string>()));
  return std::nullopt;
}

std::optional<std::string> scenario_difference(const Json& a, const Json& b) {
  if (a.is_null() || b.is_null() || !a.is_object() || !b.is_object()) {
    Difference d{"", a.is_null() ? Json("none") : Json("a scenario"), b.is_null() ? Json("none") : Json("a scenario")};
    return sentence("scenario", d);
  }
  const Json& pa = member(a, "parts");
  const Json& pb = member(b, "parts");
  for (std::size_t i = 0; i < std::min(pa.size(), pb.size()); ++i) {
    if (pa[i] == pb[i]) continue;
    if (member(pa[i], "name") != member(pb[i], "name"))
      return sentence(fmt::format("scenario parts[{}]", i),
                      Difference{"name", member(pa[i], "name"), member(pb[i], "name")});
    Difference d;
    if (diff(pa[i], pb[i], "", d)) {
      if (d.path.rfind("state.", 0) == 0) d.path = d.path.substr(6);
      return sentence(fmt::format("scenario part {}", member(pa[i], "name").get<std::string>()), d);
    }
  }
  Difference d;
  if (diff(a, b, "", d)) return sentence("scenario", d);
  return std::nullopt;
}

}  // namespace

core::Json save_image(const world::World& world, const scenario::ScenarioRuntime* runtime) {
  Json j{{"world", world::world_image(world)}, {"scenario", nullptr}};
  if (runtime != nullptr) runtime->image(j["scenario"]);
  return j;
}

ClanNamer clan_namer(const assets::MissionData& data) {
  std::vector<std::string> names;
  for (const auto& clan : data.tma.clans) names.push_back(clan.name);
  return [names = std::move(names)](std::int64_t clan) {
    return clan >= 0 && static_cast<std::uint64_t>(clan) < names.size() ? names[static_cast<std::size_t>(clan)]
                                                                        : std::string();
  };
}

std::optional<std::string> first_image_difference(const core::Json& saved, const core::Json& loaded,
                                                  const ClanNamer& clans) {
  if (saved == loaded) return std::nullopt;
  const Json& wa = member(saved, "world");
  const Json& wb = member(loaded, "world");
  if (wa != wb) {
    // The clocks, the RNG stream and the counters first: they say where the runs parted.
    for (const char* key :
         {"clock", "rng", "counters", "classes", "next_index", "slots", "free_slots", "object_fields"}) {
      Difference d;
      if (diff(member(wa, key), member(wb, key), key, d)) return sentence("world", d);
    }
    if (auto o = objects_difference(wa, wb, clans)) return o;
    Difference d;
    if (diff(wa, wb, "", d)) return sentence("world", d);
  }
  if (auto s = scenario_difference(member(saved, "scenario"), member(loaded, "scenario"))) return s;
  Difference d;
  if (diff(saved, loaded, "", d)) return sentence("image", d);
  return std::nullopt;
}

core::Status compare_save_image(const core::Json& saved, const core::Json& loaded, std::uint64_t tick,
                                const ClanNamer& clans) {
  const auto d = first_image_difference(saved, loaded, clans);
  if (!d) return {};
  return core::fail(core::Diagnostic::error(
      "save.mismatch", fmt::format("re-simulated to tick {}, the world differs from the save's image: {}", tick, *d)));
}

}  // namespace sortie::mission

namespace sortie::mission {

namespace {

core::Diagnostic image_field(const std::string& field, std::string_view expected) {
  return core::Diagnostic::error("save.field",
                                 fmt::format("the save's image: '{}' is missing or not {}", field, expected));
}

core::Diagnostic image_limit(std::string_view what, std::uint64_t limit, std::uint64_t found) {
  return core::Diagnostic::error("save.limit", fmt::format("the save's image: {} is over the limit", what))
      .expect(fmt::format("at most {}", limit), std::to_string(found));
}

// Depth (of arrays and objects, counted as in the file's text: its top object is 1) and text
// sizes of every value; the depth is bounded, so the walk's recursion is too.
core::Status check_values(const Json& j, std::size_t depth) {
  if ((j.is_array() || j.is_object()) && depth > kMaxSaveDepth)
    return core::fail(image_limit("nesting depth", kMaxSaveDepth, depth));
  if (j.is_string() && j.get_ref<const std::string&>().size() > kMaxSaveImageTextBytes)
    return core::fail(
        image_limit("a text value's bytes", kMaxSaveImageTextBytes, j.get_ref<const std::string&>().size()));
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k.size() > kMaxSaveImageTextBytes)
        return core::fail(image_limit("a key's bytes", kMaxSaveImageTextBytes, k.size()));
      SORTIE_CHECK(check_values(v, depth + 1));
    }
  } else if (j.is_array()) {
    for (const Json& v : j) SORTIE_CHECK(check_values(v, depth + 1));
  }
  return {};
}

}  // namespace

core::Status check_save_image(const core::Json& image) {
  if (!image.is_object()) return core::fail(image_field("image", "an object"));
  const Json& w = member(image, "world");
  if (!w.is_object()) return core::fail(image_field("world", "an object"));
  for (const char* key : {"clock", "rng", "counters", "classes", "next_index", "free_slots", "object_fields", "objects",
                          "queue", "events", "deferred_delete", "deferred_add", "pending_commands"})
    if (!member(w, key).is_array()) return core::fail(image_field(fmt::format("world.{}", key), "an array"));
  const Json& objects = w["objects"];
  if (objects.size() > kMaxSaveImageObjects)
    return core::fail(image_limit("object count", kMaxSaveImageObjects, objects.size()));
  const Json& fields = w["object_fields"];
  if (fields.size() != std::size(world::kImageObjectFields))
    return core::fail(
        image_field("world.object_fields", fmt::format("{} names", std::size(world::kImageObjectFields))));
  for (std::size_t f = 0; f < fields.size(); ++f)
    if (fields[f] != world::kImageObjectFields[f])
      return core::fail(image_field(fmt::format("world.object_fields[{}]", f), world::kImageObjectFields[f]));
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const Json& o = objects[i];
    if (!o.is_array() || o.size() != fields.size() || !o[0].is_string() || !o[10].is_array())
      return core::fail(
          image_field(fmt::format("world.objects[{}]", i),
                      fmt::format("an array of {} (id text, ..., properties array, ...)", fields.size())));
  }
  const Json& sc = member(image, "scenario");
  if (!sc.is_null()) {
    if (!sc.is_object() || !member(sc, "parts").is_array())
      return core::fail(image_field("scenario", "null or an object with parts"));
    for (std::size_t i = 0; i < sc["parts"].size(); ++i)
      if (!member(sc["parts"][i], "name").is_string())
        return core::fail(image_field(fmt::format("scenario.parts[{}].name", i), "a string"));
  }
  return check_values(image, 2);  // the file's own object is depth 1
}

core::Json save_image_summary(const core::Json& image) {
  const Json& w = member(image, "world");
  std::map<std::string, std::size_t> by_class;
  std::map<std::string, std::size_t> by_clan;
  std::map<std::uint64_t, std::string> class_names;
  for (const Json& c : member(w, "classes"))
    if (c.is_array() && c.size() == 2 && c[0].is_number_unsigned() && c[1].is_string())
      class_names[c[0].get<std::uint64_t>()] = c[1].get<std::string>();
  for (const Json& o : member(w, "objects")) {
    const std::string& id = o[0].get_ref<const std::string&>();
    std::uint64_t raw = 0;
    std::from_chars(id.data(), id.data() + id.size(), raw, 16);
    const auto cls = world::ObjectId::from_raw(raw).class_id;
    const auto it = class_names.find(cls);
    ++by_class[it != class_names.end() ? it->second : fmt::format("class {}", cls)];
    for (const Json& p : o[10])
      if (p.is_array() && p.size() == 3 && p[0] == "clan") ++by_clan[p[2].dump()];
  }
  Json out{{"objects", member(w, "objects").size()},
           {"objects_by_class", by_class},
           {"objects_by_clan", by_clan},
           {"clock", member(w, "clock")},
           {"rng", member(w, "rng")},
           {"pending_commands", member(w, "pending_commands").size()},
           {"pending_events", member(w, "events").size()},
           {"deferred_deletions", member(w, "deferred_delete").size()}};
  const Json& sc = member(image, "scenario");
  Json parts = Json::array();
  for (const Json& p : member(sc, "parts")) {
    Json part{{"name", member(p, "name")}, {"running", member(p, "running")}};
    const Json& st = member(p, "state");
    if (st.contains("radar") && st["radar"].is_array()) {
      std::map<std::string, std::size_t> orders;
      for (const Json& r : st["radar"])
        if (r.contains("order") && r["order"].is_string()) ++orders[r["order"].get<std::string>()];
      part["orders"] = orders;
    }
    if (st.contains("globals")) part["globals"] = st["globals"].is_object() ? st["globals"].size() : 0;
    if (st.contains("timers") && st["timers"].is_array()) part["timers"] = st["timers"].size();
    parts.push_back(std::move(part));
  }
  out["scenario_parts"] = std::move(parts);
  // Objectives and outcome: the scenario.state component of the scenario object.
  for (const Json& o : member(w, "objects")) {
    const Json& comps = o[12];
    if (comps.is_object() && comps.contains("scenario.state")) out["scenario_state"] = comps["scenario.state"];
  }
  return out;
}

}  // namespace sortie::mission
