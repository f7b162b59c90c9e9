#include "sortie/world/command_json.hpp"

#include <fmt/format.h>

#include <bit>

namespace sortie::world {

using core::Diagnostic;
using core::fail;
using core::Json;

core::Diagnostic json_field_missing(const std::string& field_path) {
  return Diagnostic::error("command_log.field_missing", "required field is missing").in(field_path);
}

void json_put_f32(Json& object, std::string_view key, float value) {
  object[std::string(key)] = value;
  object[std::string(key) + "_bits"] = std::bit_cast<std::uint32_t>(value);
}

core::Result<float> json_get_f32(const Json& object, std::string_view key, const std::string& path) {
  SORTIE_TRY(auto bits, json_get<std::uint32_t>(object, std::string(key) + "_bits", path));
  return std::bit_cast<float>(bits);
}

void json_put_object_id(Json& object, std::string_view key, ObjectId id) {
  object[std::string(key)] = Json{{"owner", id.owner}, {"class", id.class_id}, {"index", id.index}};
}

namespace {

core::Result<const Json*> member(const Json& object, std::string_view key, const std::string& path, bool array) {
  const std::string field = path.empty() ? std::string(key) : path + "." + std::string(key);
  if (!object.is_object()) {
    return fail(
        Diagnostic::error("command_log.field_type", "expected a JSON object").in(path).expect("object", object.dump()));
  }
  auto it = object.find(key);
  if (it == object.end()) return fail(json_field_missing(field));
  if (array ? !it->is_array() : !it->is_object()) {
    return fail(Diagnostic::error("command_log.field_type", "field has the wrong type")
                    .in(field)
                    .expect(array ? "array" : "object", it->dump()));
  }
  return &*it;
}

}  // namespace

core::Result<const Json*> json_get_object(const Json& object, std::string_view key, const std::string& path) {
  return member(object, key, path, false);
}

core::Result<const Json*> json_get_array(const Json& object, std::string_view key, const std::string& path) {
  return member(object, key, path, true);
}

core::Result<ObjectId> json_get_object_id(const Json& object, std::string_view key, const std::string& path) {
  SORTIE_TRY(const Json* j, json_get_object(object, key, path));
  const std::string field = path.empty() ? std::string(key) : path + "." + std::string(key);
  ObjectId id;
  SORTIE_TRY(id.owner, json_get<std::uint16_t>(*j, "owner", field));
  SORTIE_TRY(id.class_id, json_get<std::uint16_t>(*j, "class", field));
  SORTIE_TRY(id.index, json_get<std::uint32_t>(*j, "index", field));
  return id;
}

namespace {

Diagnostic unknown_kind(const CommandRegistry& registry, const std::string& name, const std::string& field) {
  return Diagnostic::error("command_log.kind_unknown", fmt::format("unknown command kind '{}'", name))
      .in(field)
      .expect(registry.describe(), name);
}

// A v1 record: every kind had the same fields; the kind converts them (from_legacy).
core::Result<Command> command_from_v1(const Json& j, const std::string& path, const CommandRegistry& registry) {
  Command c;
  SORTIE_TRY(c.tick, json_get<std::uint64_t>(j, "tick", path));
  SORTIE_TRY(auto name, json_get<std::string>(j, "kind", path));
  const CommandKindInfo* kind = registry.find(name);
  if (kind == nullptr || !kind->from_legacy) return fail(unknown_kind(registry, name, path + ".kind"));
  LegacyCommandFields f;
  SORTIE_TRY(f.target, json_get_object_id(j, "target", path));
  // The bit patterns are authoritative; the plain numbers are for people reading the log.
  SORTIE_TRY(f.x, json_get_f32(j, "x", path));
  SORTIE_TRY(f.y, json_get_f32(j, "y", path));
  SORTIE_TRY(f.z, json_get_f32(j, "z", path));
  SORTIE_TRY(f.speed, json_get_f32(j, "speed", path));
  SORTIE_TRY(f.value, json_get<std::int64_t>(j, "value", path));
  SORTIE_TRY(f.text, json_get<std::string>(j, "text", path));
  auto payload = kind->from_legacy(f);
  if (!payload) return fail(std::move(payload).error().within(path));
  c.kind = kind->wire_id;
  c.payload = std::move(*payload);
  return c;
}

core::Result<Command> command_from_v2(const Json& j, const std::string& path, const CommandRegistry& registry) {
  Command c;
  SORTIE_TRY(c.tick, json_get<std::uint64_t>(j, "tick", path));
  SORTIE_TRY(auto name, json_get<std::string>(j, "kind", path));
  const CommandKindInfo* kind = registry.find(name);
  if (kind == nullptr) return fail(unknown_kind(registry, name, path + ".kind"));
  SORTIE_TRY(const Json* payload, json_get_object(j, "payload", path));
  SORTIE_TRY(c.payload, kind->from_json(*payload, path + ".payload"));
  c.kind = kind->wire_id;
  return c;
}

}  // namespace

core::Result<Json> command_log_json(const CommandLog& log, const CommandRegistry& registry) {
  Json commands = Json::array();
  for (std::size_t i = 0; i < log.commands.size(); ++i) {
    const Command& c = log.commands[i];
    const std::string path = fmt::format("commands[{}]", i);
    const CommandKindInfo* kind = registry.find(c.kind);
    if (kind == nullptr) {
      return fail(Diagnostic::error("command_log.kind_unknown", fmt::format("unknown command kind wire id {}", c.kind))
                      .in(path + ".kind")
                      .expect(registry.describe(), std::to_string(c.kind)));
    }
    Json payload = Json::object();
    auto status = kind->to_json(c.payload, payload);
    if (!status) return fail(std::move(status).error().within(path + ".payload"));
    commands.push_back(Json{{"tick", c.tick}, {"kind", kind->name}, {"payload", std::move(payload)}});
  }
  return Json{{"format", kCommandLogJsonFormat}, {"commands", std::move(commands)}};
}

core::Result<CommandLog> command_log_from_json(const Json& json, const CommandRegistry& registry) {
  if (!json.is_object()) return fail(Diagnostic::error("command_log.not_object", "command log must be a JSON object"));
  SORTIE_TRY(auto format, json_get<std::string>(json, "format", ""));
  const bool v1 = format == kCommandLogJsonFormatV1;
  if (!v1 && format != kCommandLogJsonFormat) {
    return fail(Diagnostic::error("command_log.format", "unknown command log format")
                    .in("format")
                    .expect(fmt::format("{} or {}", kCommandLogJsonFormat, kCommandLogJsonFormatV1), format));
  }
  auto it = json.find("commands");
  if (it == json.end() || !it->is_array()) {
    return fail(Diagnostic::error("command_log.field_missing", "commands must be an array").in("commands"));
  }
  CommandLog log;
  log.commands.reserve(it->size());
  for (std::size_t i = 0; i < it->size(); ++i) {
    const Json& j = (*it)[i];
    const std::string path = fmt::format("commands[{}]", i);
    if (!j.is_object()) return fail(Diagnostic::error("command_log.not_object", "command must be an object").in(path));
    SORTIE_TRY(Command c, v1 ? command_from_v1(j, path, registry) : command_from_v2(j, path, registry));
    log.commands.push_back(std::move(c));
  }
  return log;
}

}  // namespace sortie::world
