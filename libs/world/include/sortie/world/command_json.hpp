#pragma once
// Command logs as JSON, and the JSON helpers command kinds use for their payloads. This is the
// only world header that includes nlohmann/json.hpp.
//
// Version 2 (written): {"format":"sortie-command-log-v2","commands":[
//   {"tick":5,"kind":"move","payload":{...the kind's JSON...}}, ...]}
// Version 1 (read only): {"format":"sortie-command-log-v1","commands":[{"tick":..,"kind":"move",
//   "target":{"owner","class","index"},"x_bits","y_bits","z_bits","speed_bits","value","text"}]}
// Floats are written as their value and as "<name>_bits" (u32); the bits are what is read, so
// JSON logs are lossless.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::world {

inline constexpr std::string_view kCommandLogJsonFormat = "sortie-command-log-v2";
inline constexpr std::string_view kCommandLogJsonFormatV1 = "sortie-command-log-v1";

// Errors: command_log.kind_unknown, command_log.payload.* (as write_command_log).
core::Result<core::Json> command_log_json(const CommandLog& log,
                                          const CommandRegistry& registry = *standard_command_registry());
// Errors: command_log.not_object, command_log.format, command_log.field_missing,
// command_log.field_type, command_log.kind_unknown (names the kind), command_log.legacy_field,
// and the kinds' own payload diagnostics; the field path locates the value
// ("commands[3].payload.target.owner").
core::Result<CommandLog> command_log_from_json(const core::Json& json,
                                               const CommandRegistry& registry = *standard_command_registry());

// ---- helpers for payload codecs: `path` is the object's field path, errors name path.key ----

// A required member of `object`: integers are range-checked (never silently narrowed), strings
// and booleans must have that JSON type. Errors: command_log.field_missing, command_log.field_type.
template <class T>
core::Result<T> json_get(const core::Json& object, std::string_view key, const std::string& path);
// "key": value and "key_bits": the u32 bit pattern; json_get_f32 reads the bits.
void json_put_f32(core::Json& object, std::string_view key, float value);
core::Result<float> json_get_f32(const core::Json& object, std::string_view key, const std::string& path);
// A required member that is a JSON object / array (valid as long as `object`).
core::Result<const core::Json*> json_get_object(const core::Json& object, std::string_view key,
                                                const std::string& path);
core::Result<const core::Json*> json_get_array(const core::Json& object, std::string_view key, const std::string& path);
// "key": {"owner":..,"class":..,"index":..}
void json_put_object_id(core::Json& object, std::string_view key, ObjectId id);
core::Result<ObjectId> json_get_object_id(const core::Json& object, std::string_view key, const std::string& path);

core::Diagnostic json_field_missing(const std::string& field_path);

template <class T>
core::Result<T> json_get(const core::Json& object, std::string_view key, const std::string& path) {
  const std::string field = path.empty() ? std::string(key) : path + "." + std::string(key);
  if (!object.is_object()) {
    return core::fail(core::Diagnostic::error("command_log.field_type", "expected a JSON object")
                          .in(path)
                          .expect("object", object.dump()));
  }
  auto it = object.find(key);
  if (it == object.end()) return core::fail(json_field_missing(field));
  auto wrong = [&](std::string expected) {
    return core::fail(core::Diagnostic::error("command_log.field_type", "field has the wrong type or range")
                          .in(field)
                          .expect(std::move(expected), it->dump()));
  };
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) return wrong("true or false");
    return it->template get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!it->is_string()) return wrong("string");
    return it->template get<std::string>();
  } else {
    static_assert(std::is_integral_v<T>, "json_get: bool, std::string or an integer type");
    const std::string range = "integer " + std::to_string(std::numeric_limits<T>::min()) + ".." +
                              std::to_string(std::numeric_limits<T>::max());
    if (it->is_number_unsigned()) {
      const auto v = it->template get<std::uint64_t>();
      if (v > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return wrong(range);
      return static_cast<T>(v);
    }
    if (it->is_number_integer()) {
      const auto v = it->template get<std::int64_t>();
      if constexpr (std::is_unsigned_v<T>) {
        if (v < 0 || static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) {
          return wrong(range);
        }
        return static_cast<T>(v);
      } else {
        if (v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
            v > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
          return wrong(range);
        }
        return static_cast<T>(v);
      }
    }
    return wrong(range);
  }
}

}  // namespace sortie::world
