// Edits of a decoded data.tma (typed operations, textual field paths, JSON objects).
#include "sortie/iron3d/tma_edit.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "sortie/core/file_io.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {
namespace {

using core::Diagnostic;
using core::fail;
using core::Result;
using core::Status;

Diagnostic edit_error(std::string code, std::string message, std::string field) {
  return Diagnostic::error(std::move(code), std::move(message)).in(std::move(field));
}

std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const auto comma = s.find(',', start);
    out.push_back(core::trim(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start),
                             core::kBlanks));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::optional<std::uint64_t> parse_unsigned(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// Integer word: decimal, 0x-hex, or negative decimal (two's complement).
std::optional<std::uint32_t> parse_word_int(std::string_view s) {
  if (!s.empty() && s.front() == '-') {
    auto v = parse_unsigned(s.substr(1));
    if (!v || *v > 0x80000000ull) return std::nullopt;
    return static_cast<std::uint32_t>(0u - static_cast<std::uint32_t>(*v));
  }
  auto v = parse_unsigned(s);
  if (!v || *v > 0xffffffffull) return std::nullopt;
  return static_cast<std::uint32_t>(*v);
}

std::optional<float> parse_float(std::string_view s) {
  if (!s.empty() && (s.back() == 'f' || s.back() == 'F')) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return std::nullopt;
  float v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

Result<core::Vec3> parse_vec3(std::string_view text, const std::string& field) {
  const auto parts = split_commas(text);
  if (parts.size() != 3)
    return fail(edit_error("tma.edit.value", "expected three comma-separated numbers", field)
                    .expect("X,Y,Z", std::string(text)));
  float v[3];
  for (std::size_t i = 0; i < 3; ++i) {
    auto f = parse_float(parts[i]);
    if (!f || !std::isfinite(*f))
      return fail(edit_error("tma.edit.value", "not a finite number", field).expect("X,Y,Z", std::string(text)));
    v[i] = *f;
  }
  return core::Vec3{v[0], v[1], v[2]};
}

Result<std::uint32_t> parse_int_value(std::string_view text, const std::string& field) {
  auto v = parse_word_int(core::trim(text, core::kBlanks));
  if (!v)
    return fail(edit_error("tma.edit.value", "not a 32-bit integer", field)
                    .expect("decimal, -decimal or 0x-hex", std::string(text)));
  return *v;
}

Result<TmaObject*> object_at(Tma& t, std::size_t i, const std::string& field) {
  if (i >= t.objects.size())
    return fail(edit_error("tma.edit.index", fmt::format("object {} does not exist", i), field)
                    .expect(fmt::format("0..{}", t.objects.empty() ? 0 : t.objects.size() - 1), fmt::format("{}", i)));
  return &t.objects[i];
}

std::string object_field(std::size_t i) {
  return fmt::format("objects[{}]", i);
}

// A parsed edit path: [objects[N] [.properties[KEY]]] [.field]
struct EditPath {
  bool has_object = false;
  std::size_t object = 0;
  bool has_property = false;
  bool property_by_index = false;
  std::size_t property_index = 0;
  std::string property_name;  // UTF-8 as typed
  std::string field;
};

Result<EditPath> parse_path(std::string_view path) {
  EditPath p;
  const std::string whole(path);
  auto bad = [&](std::string why) {
    return fail(edit_error("tma.edit.path", std::move(why), whole)
                    .expect("objects[N].properties[NAME], objects[N].FIELD, land_path or mission_flag", whole));
  };
  if (path.starts_with("objects[")) {
    path.remove_prefix(8);
    const auto close = path.find(']');
    if (close == std::string_view::npos) return bad("missing ']' after the object index");
    auto index = parse_unsigned(path.substr(0, close));
    if (!index || *index > std::numeric_limits<std::uint32_t>::max()) return bad("the object index is not a number");
    p.has_object = true;
    p.object = static_cast<std::size_t>(*index);
    path.remove_prefix(close + 1);
    if (path.starts_with(".properties[")) {
      path.remove_prefix(12);
      // The key runs to the last ']' that is followed by nothing or by ".name".
      std::size_t end = std::string_view::npos;
      if (path.ends_with("].name"))
        end = path.size() - 6;
      else if (path.ends_with("]"))
        end = path.size() - 1;
      if (end == std::string_view::npos) return bad("missing ']' after the property key");
      std::string_view key = path.substr(0, end);
      path.remove_prefix(end + 1);
      p.has_property = true;
      if (key.size() >= 2 && key.front() == '"' && key.back() == '"') {
        p.property_name = std::string(key.substr(1, key.size() - 2));
      } else if (auto k = parse_unsigned(key); k && key.find_first_not_of("0123456789") == std::string_view::npos) {
        p.property_by_index = true;
        p.property_index = static_cast<std::size_t>(*k);
      } else {
        if (key.empty()) return bad("empty property key");
        p.property_name = std::string(key);
      }
    }
    if (path.empty()) return p;
    if (path.front() != '.') return bad(fmt::format("unexpected '{}'", path));
    path.remove_prefix(1);
  }
  p.field = std::string(path);
  if (p.field.empty()) return bad("no field named");
  return p;
}

// Index of the property an edit path names.
Result<std::size_t> property_index(const TmaObject& o, const EditPath& p, const std::string& field) {
  if (p.property_by_index) {
    if (p.property_index >= o.properties.size())
      return fail(edit_error("tma.edit.index", fmt::format("property {} does not exist", p.property_index), field)
                      .expect(fmt::format("< {}", o.properties.size()), fmt::format("{}", p.property_index)));
    return p.property_index;
  }
  SORTIE_TRY(const std::string name, tma_text_from_utf8(p.property_name));
  for (std::size_t i = 0; i < o.properties.size(); ++i)
    if (o.properties[i].name == name) return i;
  std::string names;
  for (const auto& q : o.properties) names += (names.empty() ? "'" : ", '") + tma_text_utf8(q.name) + "'";
  return fail(edit_error("tma.edit.property", fmt::format("object has no property named '{}'", p.property_name), field)
                  .expect(names.empty() ? "(no properties)" : names, p.property_name));
}

Status apply_set(Tma& t, std::string_view assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string_view::npos)
    return fail(edit_error("tma.edit.path", "an edit is PATH=VALUE", std::string(assignment))
                    .expect("PATH=VALUE", std::string(assignment)));
  const std::string field(assignment.substr(0, eq));
  const std::string_view value = assignment.substr(eq + 1);
  SORTIE_TRY(const EditPath p, parse_path(field));
  auto unknown = [&] {
    return fail(edit_error("tma.edit.path", fmt::format("'{}' is not an editable field", p.field), field));
  };
  if (!p.has_object) {
    if (p.field == "land_path") {
      SORTIE_TRY(t.land_path, tma_text_from_utf8(value));
      return {};
    }
    if (p.field == "mission_flag") {
      SORTIE_TRY(t.mission_flag, parse_int_value(value, field));
      return {};
    }
    return unknown();
  }
  SORTIE_TRY(TmaObject * o, object_at(t, p.object, field));
  if (p.has_property) {
    SORTIE_TRY(const std::size_t k, property_index(*o, p, field));
    auto& prop = o->properties[k];
    if (p.field == "name") {
      SORTIE_TRY(prop.name, tma_text_from_utf8(value));
      return {};
    }
    if (!p.field.empty()) return unknown();
    auto words = parse_tma_words(value, prop.raw);
    if (!words) return fail(std::move(words).error().in(field));
    prop.raw = *words;
    return {};
  }
  if (p.field == "position" || p.field == "orientation" || p.field == "scale") {
    SORTIE_TRY(const core::Vec3 v, parse_vec3(value, field));
    (p.field == "position" ? o->position : p.field == "orientation" ? o->orientation : o->scale) = v;
    return {};
  }
  if (p.field == "resource_name") {
    SORTIE_TRY(o->resource_name, tma_text_from_utf8(value));
    return {};
  }
  if (p.field == "instance_name") {
    SORTIE_TRY(o->instance_name, tma_text_from_utf8(value));
    return {};
  }
  std::uint32_t* word = nullptr;
  if (p.field == "raw_kind")
    word = &o->raw_kind;
  else if (p.field == "flags")
    word = &o->flags;
  else if (p.field == "raw_after_resource")
    word = &o->raw_after_resource;
  else if (p.field == "identity_or_clan_raw")
    word = &o->identity_or_clan_raw;
  else if (p.field == "raw_after_name")
    word = &o->raw_after_name;
  if (word) {
    SORTIE_TRY(*word, parse_int_value(value, field));
    return {};
  }
  if (p.field == "link0" || p.field == "link1") {
    SORTIE_TRY(const std::uint32_t v, parse_int_value(value, field));
    (p.field == "link0" ? o->link0 : o->link1) = static_cast<std::int32_t>(v);
    return {};
  }
  return unknown();
}

Status apply_add_property(Tma& t, std::string_view assignment) {
  const auto eq = assignment.find('=');
  const std::string field(assignment.substr(0, eq));
  SORTIE_TRY(const EditPath p, parse_path(field));
  if (!p.has_property || p.property_by_index || !p.field.empty() || eq == std::string_view::npos)
    return fail(edit_error("tma.edit.path", "--add-property takes objects[N].properties[NAME]=WORDS", field)
                    .expect("objects[N].properties[NAME]=WORDS", std::string(assignment)));
  SORTIE_TRY(TmaProperty prop, ([&]() -> Result<TmaProperty> {
               TmaProperty q;
               SORTIE_TRY(q.name, tma_text_from_utf8(p.property_name));
               auto words = parse_tma_words(assignment.substr(eq + 1));
               if (!words) return fail(std::move(words).error().in(field));
               q.raw = *words;
               return q;
             }()));
  return tma_add_property(t, p.object, std::move(prop));
}

Status apply_remove_property(Tma& t, std::string_view path) {
  const std::string field(path);
  SORTIE_TRY(const EditPath p, parse_path(field));
  if (!p.has_property || !p.field.empty())
    return fail(edit_error("tma.edit.path", "--remove-property takes objects[N].properties[NAME or K]", field));
  SORTIE_TRY(TmaObject * o, object_at(t, p.object, field));
  SORTIE_TRY(const std::size_t k, property_index(*o, p, field));
  return tma_remove_property(t, p.object, k);
}

Result<std::size_t> parse_index(std::string_view s, const std::string& what) {
  auto v = parse_unsigned(core::trim(s, core::kBlanks));
  if (!v || *v > std::numeric_limits<std::uint32_t>::max())
    return fail(
        edit_error("tma.edit.value", "not an object index", what).expect("0-based object index", std::string(s)));
  return static_cast<std::size_t>(*v);
}

}  // namespace

// ---- typed operations ----

core::Status tma_set_property(Tma& t, std::size_t object, std::string_view name, const TmaWords& raw) {
  const std::string field = object_field(object);
  SORTIE_TRY(TmaObject * o, object_at(t, object, field));
  auto* p = o->find_property(name);
  if (!p)
    return fail(edit_error("tma.edit.property", fmt::format("object has no property named '{}'", tma_text_utf8(name)),
                           fmt::format("{}.properties[{}]", field, tma_text_utf8(name))));
  p->raw = raw;
  return {};
}

core::Status tma_add_property(Tma& t, std::size_t object, TmaProperty property) {
  SORTIE_TRY(TmaObject * o, object_at(t, object, object_field(object)));
  o->properties.push_back(std::move(property));
  return {};
}

core::Status tma_remove_property(Tma& t, std::size_t object, std::size_t index) {
  const std::string field = object_field(object);
  SORTIE_TRY(TmaObject * o, object_at(t, object, field));
  if (index >= o->properties.size())
    return fail(edit_error("tma.edit.index", fmt::format("property {} does not exist", index),
                           fmt::format("{}.properties[{}]", field, index))
                    .expect(fmt::format("< {}", o->properties.size()), fmt::format("{}", index)));
  o->properties.erase(o->properties.begin() + static_cast<std::ptrdiff_t>(index));
  return {};
}

core::Status tma_remove_property(Tma& t, std::size_t object, std::string_view name) {
  SORTIE_TRY(TmaObject * o, object_at(t, object, object_field(object)));
  for (std::size_t i = 0; i < o->properties.size(); ++i)
    if (o->properties[i].name == name) return tma_remove_property(t, object, i);
  return fail(edit_error("tma.edit.property", fmt::format("object has no property named '{}'", tma_text_utf8(name)),
                         fmt::format("objects[{}].properties[{}]", object, tma_text_utf8(name))));
}

core::Status tma_move_object(Tma& t, std::size_t object, core::Vec3 position) {
  SORTIE_TRY(TmaObject * o, object_at(t, object, object_field(object)));
  o->position = position;
  return {};
}

core::Status tma_rename_object(Tma& t, std::size_t object, std::string instance_name) {
  SORTIE_TRY(TmaObject * o, object_at(t, object, object_field(object)));
  o->instance_name = std::move(instance_name);
  return {};
}

core::Result<std::size_t> tma_add_object(Tma& t, TmaObject object) {
  if (t.objects.size() >= kTmaMaxObjects)
    return fail(edit_error("tma.edit.index", "the object section is full", "objects"));
  t.objects.push_back(std::move(object));
  return t.objects.size() - 1;
}

core::Status tma_remove_object(Tma& t, std::size_t object) {
  SORTIE_CHECK(object_at(t, object, object_field(object)));
  t.objects.erase(t.objects.begin() + static_cast<std::ptrdiff_t>(object));
  return {};
}

// ---- values ----

core::Result<TmaWords> parse_tma_words(std::string_view text, const TmaWords& base) {
  const auto parts = split_commas(core::trim(text, core::kBlanks));
  if (parts.empty() || parts.size() > 4)
    return fail(Diagnostic::error("tma.edit.value", "a property value is 1 to 4 comma-separated words")
                    .expect("W[,W[,W[,W]]]", std::string(text)));
  TmaWords out = base;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const auto s = parts[i];
    const bool is_float =
        !s.empty() && (s.back() == 'f' || s.back() == 'F') && !s.starts_with("0x") && !s.starts_with("0X");
    if (is_float) {
      auto f = parse_float(s);
      if (!f)
        return fail(Diagnostic::error("tma.edit.value", fmt::format("word {} is not a float", i))
                        .expect("e.g. 1.5f", std::string(s)));
      out[i] = std::bit_cast<std::uint32_t>(*f);
    } else {
      auto v = parse_word_int(s);
      if (!v)
        return fail(Diagnostic::error("tma.edit.value", fmt::format("word {} is not a 32-bit integer", i))
                        .expect("decimal, -decimal, 0x-hex or 1.5f", std::string(s)));
      out[i] = *v;
    }
  }
  return out;
}

core::Result<std::string> tma_text_from_utf8(std::string_view utf8) {
  auto s = core::utf8_to_cp1251(utf8);
  if (!s)
    return fail(Diagnostic::error("tma.edit.text", "text is not UTF-8 made of Windows-1251 characters")
                    .expect("Windows-1251 characters", std::string(utf8)));
  return *s;
}

core::Result<TmaObject> tma_object_from_json(const core::Json& j) {
  using core::Json;
  if (!j.is_object()) return fail(Diagnostic::error("tma.edit.value", "an object is a JSON object").in("object"));
  TmaObject o;
  auto bad = [](const std::string& key, std::string why) {
    return fail(Diagnostic::error("tma.edit.value", std::move(why)).in("object." + key));
  };
  auto text = [&](const std::string& key, std::string& out) -> Status {
    if (j.contains(key + "_hex")) {
      const auto& h = j[key + "_hex"];
      if (!h.is_string()) return bad(key + "_hex", "expected a hex string");
      SORTIE_TRY(auto bytes, core::from_hex(h.get<std::string>()));
      out.assign(bytes.begin(), bytes.end());
      return {};
    }
    if (!j.contains(key)) return {};
    if (!j[key].is_string()) return bad(key, "expected a string");
    auto s = tma_text_from_utf8(j[key].get<std::string>());
    if (!s) return fail(std::move(s).error().in("object." + key));
    out = *s;
    return {};
  };
  auto word = [&](const std::string& key, auto& out) -> Status {
    if (!j.contains(key)) return {};
    const auto& v = j[key];
    if (v.is_number_unsigned() && v.get<std::uint64_t>() <= 0xffffffffull) {
      out = static_cast<std::remove_reference_t<decltype(out)>>(v.get<std::uint64_t>());
    } else if (v.is_number_integer() && v.get<std::int64_t>() >= std::numeric_limits<std::int32_t>::min() &&
               v.get<std::int64_t>() <= 0xffffffffll) {
      out = static_cast<std::remove_reference_t<decltype(out)>>(v.get<std::int64_t>());
    } else {
      return bad(key, "expected a 32-bit integer");
    }
    return {};
  };
  auto vec = [&](const std::string& key, core::Vec3& out) -> Status {
    if (j.contains(key + "_hex")) {  // exact bits (non-finite components)
      const auto& h = j[key + "_hex"];
      if (!h.is_string()) return bad(key + "_hex", "expected a hex string");
      SORTIE_TRY(auto bytes, core::from_hex(h.get<std::string>()));
      if (bytes.size() != 12) return bad(key + "_hex", "expected 12 bytes");
      out = {core::load_f32(bytes.data()), core::load_f32(bytes.data() + 4), core::load_f32(bytes.data() + 8)};
      return {};
    }
    if (!j.contains(key)) return {};
    const auto& v = j[key];
    if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
      return bad(key, "expected [x, y, z]");
    out = {v[0].get<float>(), v[1].get<float>(), v[2].get<float>()};
    return {};
  };
  static const char* const kKnown[] = {"index",
                                       "raw_kind",
                                       "flags",
                                       "resource_name",
                                       "resource_name_hex",
                                       "raw_after_resource",
                                       "identity_or_clan_raw",
                                       "position",
                                       "orientation",
                                       "scale",
                                       "position_hex",
                                       "orientation_hex",
                                       "scale_hex",
                                       "instance_name",
                                       "instance_name_hex",
                                       "raw_after_name",
                                       "link0",
                                       "link1",
                                       "property_schema_version",
                                       "properties"};
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const char* k : kKnown) known = known || key == k;
    if (!known) return bad(key, fmt::format("unknown key '{}'", key));
  }
  SORTIE_CHECK(word("raw_kind", o.raw_kind));
  SORTIE_CHECK(word("flags", o.flags));
  SORTIE_CHECK(text("resource_name", o.resource_name));
  SORTIE_CHECK(word("raw_after_resource", o.raw_after_resource));
  SORTIE_CHECK(word("identity_or_clan_raw", o.identity_or_clan_raw));
  SORTIE_CHECK(vec("position", o.position));
  SORTIE_CHECK(vec("orientation", o.orientation));
  SORTIE_CHECK(vec("scale", o.scale));
  SORTIE_CHECK(text("instance_name", o.instance_name));
  SORTIE_CHECK(word("raw_after_name", o.raw_after_name));
  SORTIE_CHECK(word("link0", o.link0));
  SORTIE_CHECK(word("link1", o.link1));
  SORTIE_CHECK(word("property_schema_version", o.property_schema_version));
  if (j.contains("properties")) {
    const auto& props = j["properties"];
    if (!props.is_array()) return bad("properties", "expected an array");
    for (std::size_t i = 0; i < props.size(); ++i) {
      const auto& pj = props[i];
      const std::string pf = fmt::format("object.properties[{}]", i);
      if (!pj.is_object() || !pj.contains("raw") || !pj["raw"].is_array() || pj["raw"].size() != 4)
        return fail(
            Diagnostic::error("tma.edit.value", "a property is {\"name\": ..., \"raw\": [w0, w1, w2, w3]}").in(pf));
      TmaProperty p;
      for (std::size_t k = 0; k < 4; ++k) {
        const auto& w = pj["raw"][k];
        if (w.is_number_unsigned() && w.get<std::uint64_t>() <= 0xffffffffull) {
          p.raw[k] = static_cast<std::uint32_t>(w.get<std::uint64_t>());
        } else if (w.is_number_integer() && w.get<std::int64_t>() >= std::numeric_limits<std::int32_t>::min() &&
                   w.get<std::int64_t>() < 0) {
          p.raw[k] = static_cast<std::uint32_t>(static_cast<std::int32_t>(w.get<std::int64_t>()));
        } else {
          return fail(Diagnostic::error("tma.edit.value", "a raw word is a 32-bit integer")
                          .in(fmt::format("{}.raw[{}]", pf, k)));
        }
      }
      if (pj.contains("name_hex") && pj["name_hex"].is_string()) {
        SORTIE_TRY(auto bytes, core::from_hex(pj["name_hex"].get<std::string>()));
        p.name.assign(bytes.begin(), bytes.end());
      } else if (pj.contains("name") && pj["name"].is_string()) {
        auto s = tma_text_from_utf8(pj["name"].get<std::string>());
        if (!s) return fail(std::move(s).error().in(pf + ".name"));
        p.name = *s;
      } else {
        return fail(Diagnostic::error("tma.edit.value", "a property needs a \"name\" string").in(pf + ".name"));
      }
      o.properties.push_back(std::move(p));
    }
  }
  return o;
}

// ---- textual edits ----

namespace {
core::Status apply_edit(Tma& t, const TmaEdit& e);
}  // namespace

core::Status apply_tma_edit(Tma& t, const TmaEdit& e) {
  auto st = apply_edit(t, e);
  if (st || !st.error().field.empty() || e.args.empty()) return st;
  // Name the edited path when the failing step did not.
  auto d = std::move(st).error();
  const std::string& a = e.args[0];
  d.field = e.kind == TmaEditKind::set || e.kind == TmaEditKind::add_property ? a.substr(0, a.find('=')) : a;
  if (e.kind == TmaEditKind::add_object) d.field = "object";
  return fail(std::move(d));
}

namespace {
core::Status apply_edit(Tma& t, const TmaEdit& e) {
  auto need = [&](std::size_t n, const char* usage) -> Status {
    if (e.args.size() == n) return {};
    return fail(Diagnostic::error("tma.edit.path", fmt::format("expected {} argument(s): {}", n, usage)));
  };
  switch (e.kind) {
    case TmaEditKind::set:
      SORTIE_CHECK(need(1, "PATH=VALUE"));
      return apply_set(t, e.args[0]);
    case TmaEditKind::add_property:
      SORTIE_CHECK(need(1, "objects[N].properties[NAME]=WORDS"));
      return apply_add_property(t, e.args[0]);
    case TmaEditKind::remove_property:
      SORTIE_CHECK(need(1, "objects[N].properties[NAME or K]"));
      return apply_remove_property(t, e.args[0]);
    case TmaEditKind::move: {
      SORTIE_CHECK(need(4, "N X Y Z"));
      SORTIE_TRY(const std::size_t n, parse_index(e.args[0], "objects"));
      SORTIE_TRY(const core::Vec3 v, parse_vec3(fmt::format("{},{},{}", e.args[1], e.args[2], e.args[3]),
                                                fmt::format("objects[{}].position", n)));
      return tma_move_object(t, n, v);
    }
    case TmaEditKind::rename: {
      SORTIE_CHECK(need(2, "N NAME"));
      SORTIE_TRY(const std::size_t n, parse_index(e.args[0], "objects"));
      auto name = tma_text_from_utf8(e.args[1]);
      if (!name) return fail(std::move(name).error().in(fmt::format("objects[{}].instance_name", n)));
      return tma_rename_object(t, n, std::move(*name));
    }
    case TmaEditKind::add_object: {
      SORTIE_CHECK(need(1, "JSON object"));
      const auto j = core::Json::parse(e.args[0], nullptr, false);
      if (j.is_discarded())
        return fail(Diagnostic::error("tma.edit.value", "the object is not valid JSON")
                        .in("object")
                        .expect("a JSON object", e.args[0]));
      SORTIE_TRY(TmaObject o, tma_object_from_json(j));
      SORTIE_CHECK(tma_add_object(t, std::move(o)));
      return {};
    }
    case TmaEditKind::remove_object: {
      SORTIE_CHECK(need(1, "N"));
      SORTIE_TRY(const std::size_t n, parse_index(e.args[0], "objects"));
      return tma_remove_object(t, n);
    }
  }
  return fail(Diagnostic::error("tma.edit.path", "unknown edit"));
}
}  // namespace

core::Status apply_tma_edits(Tma& t, std::span<const TmaEdit> edits) {
  for (std::size_t i = 0; i < edits.size(); ++i) {
    auto st = apply_tma_edit(t, edits[i]);
    if (!st) {
      auto d = std::move(st).error();
      d.message = fmt::format("edit {}: {}", i + 1, d.message);
      return fail(std::move(d));
    }
  }
  return {};
}

core::Result<TmaFileEditResult> edit_tma_file(const TmaFileEdit& request) {
  auto bytes = core::read_file(request.input);
  if (!bytes) return tl::unexpected(bytes.error());
  TmaFileEditResult result;
  auto tma = read_tma(*bytes, {request.profile, request.input.string()}, &result.warnings);
  if (!tma) return tl::unexpected(tma.error());
  if (auto st = apply_tma_edits(*tma, request.edits); !st) {
    auto d = st.error();
    if (d.file.empty()) d.file = request.input.string();
    return tl::unexpected(std::move(d));
  }
  auto out = write_tma(*tma);
  if (!out) {
    auto d = out.error();
    if (d.file.empty()) d.file = request.output.string();
    return tl::unexpected(std::move(d));
  }
  SORTIE_CHECK(core::write_file_atomic(request.output, *out));
  result.edits = request.edits.size();
  result.bytes = out->size();
  result.objects = tma->objects.size();
  return result;
}

}  // namespace sortie::iron3d
