#include "sortie/world/command.hpp"

#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

namespace sortie::world {

using core::Diagnostic;
using core::fail;

namespace {

constexpr std::array<std::pair<CommandKind, std::string_view>, 8> kKinds{{
    {CommandKind::move, "move"},
    {CommandKind::stop, "stop"},
    {CommandKind::pause, "pause"},
    {CommandKind::set_speed, "set_speed"},
    {CommandKind::spawn, "spawn"},
    {CommandKind::remove, "remove"},
    {CommandKind::set_property, "set_property"},
    {CommandKind::route, "route"},
}};

bool known_kind(std::uint8_t raw) { return raw >= 1 && raw <= 8; }
constexpr std::size_t kWaypointChars = 17;  // 8 hex digits, ',', 8 hex digits

constexpr std::string_view kJsonFormat = "sortie-command-log-v1";
constexpr std::uint32_t kBytesVersion = 1;
constexpr std::size_t kMinCommandBytes = 8 + 1 + 8 + 16 + 8 + 4;

}  // namespace

std::string_view to_string(CommandKind kind) {
  for (const auto& [k, name] : kKinds) {
    if (k == kind) return name;
  }
  return "unknown";
}

Command Command::move(std::uint64_t tick, ObjectId target, float x, float y, float speed) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::move;
  c.target = target;
  c.x = x;
  c.y = y;
  c.speed = speed;
  return c;
}

Command Command::stop(std::uint64_t tick, ObjectId target) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::stop;
  c.target = target;
  return c;
}

Command Command::pause(std::uint64_t tick, bool paused) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::pause;
  c.value = paused ? 1 : 0;
  return c;
}

Command Command::set_speed(std::uint64_t tick, std::uint32_t scale_permille) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::set_speed;
  c.value = scale_permille;
  return c;
}

Command Command::spawn(std::uint64_t tick, ClassId class_id, std::string prototype, float x, float y, float z) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::spawn;
  c.value = class_id;
  c.text = std::move(prototype);
  c.x = x;
  c.y = y;
  c.z = z;
  return c;
}

Command Command::remove(std::uint64_t tick, ObjectId target) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::remove;
  c.target = target;
  return c;
}

Command Command::set_property(std::uint64_t tick, ObjectId target, std::string key, std::int64_t value) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::set_property;
  c.target = target;
  c.text = std::move(key);
  c.value = value;
  return c;
}

Command Command::route(std::uint64_t tick, ObjectId target, const std::vector<core::Vec2>& waypoints, float speed) {
  Command c;
  c.tick = tick;
  c.kind = CommandKind::route;
  c.target = target;
  if (!waypoints.empty()) {
    c.x = waypoints.back().x;
    c.y = waypoints.back().y;
  }
  c.speed = speed;
  c.text = encode_waypoints(waypoints);
  return c;
}

std::string encode_waypoints(const std::vector<core::Vec2>& waypoints) {
  std::string out;
  out.reserve(waypoints.size() * (kWaypointChars + 1));
  for (std::size_t i = 0; i < waypoints.size(); ++i) {
    if (i > 0) out.push_back(';');
    out += fmt::format("{:08x},{:08x}", std::bit_cast<std::uint32_t>(waypoints[i].x),
                       std::bit_cast<std::uint32_t>(waypoints[i].y));
  }
  return out;
}

core::Result<std::vector<core::Vec2>> decode_waypoints(std::string_view text) {
  auto bad = [&](std::size_t at, std::string expected) {
    return fail(Diagnostic::error("world.command.waypoints", "malformed route waypoints")
                    .at(at)
                    .in("text")
                    .expect(std::move(expected), std::string(text.substr(at, 18))));
  };
  if (text.empty()) return bad(0, "at least one waypoint");
  if ((text.size() + 1) % (kWaypointChars + 1) != 0) return bad(0, "18 * n - 1 characters");
  const std::size_t n = (text.size() + 1) / (kWaypointChars + 1);
  std::vector<core::Vec2> out;
  out.reserve(n);
  auto hex8 = [&](std::size_t at) -> std::optional<std::uint32_t> {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 8; ++k) {
      const char ch = text[at + k];
      std::uint32_t d = 0;
      if (ch >= '0' && ch <= '9') {
        d = static_cast<std::uint32_t>(ch - '0');
      } else if (ch >= 'a' && ch <= 'f') {
        d = static_cast<std::uint32_t>(ch - 'a' + 10);
      } else {
        return std::nullopt;
      }
      v = (v << 4) | d;
    }
    return v;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = i * (kWaypointChars + 1);
    if (i > 0 && text[at - 1] != ';') return bad(at - 1, "';'");
    if (text[at + 8] != ',') return bad(at + 8, "','");
    auto x = hex8(at);
    auto y = hex8(at + 9);
    if (!x || !y) return bad(at, "8 lowercase hex digits");
    out.push_back(core::Vec2{std::bit_cast<float>(*x), std::bit_cast<float>(*y)});
  }
  return out;
}

// ---------------------------------------------------------------- JSON

core::Json command_log_json(const CommandLog& log) {
  core::Json commands = core::Json::array();
  for (const Command& c : log.commands) {
    core::Json j;
    j["tick"] = c.tick;
    j["kind"] = std::string(to_string(c.kind));
    j["target"] = {{"owner", c.target.owner}, {"class", c.target.class_id}, {"index", c.target.index}};
    j["x_bits"] = std::bit_cast<std::uint32_t>(c.x);
    j["y_bits"] = std::bit_cast<std::uint32_t>(c.y);
    j["z_bits"] = std::bit_cast<std::uint32_t>(c.z);
    j["speed_bits"] = std::bit_cast<std::uint32_t>(c.speed);
    j["x"] = c.x;
    j["y"] = c.y;
    j["z"] = c.z;
    j["speed"] = c.speed;
    j["value"] = c.value;
    j["text"] = c.text;
    commands.push_back(std::move(j));
  }
  return core::Json{{"format", kJsonFormat}, {"commands", std::move(commands)}};
}

namespace {

template <class T>
core::Result<T> json_field(const core::Json& j, const char* key, const std::string& path) {
  auto it = j.find(key);
  if (it == j.end()) {
    return fail(Diagnostic::error("command_log.field_missing", "required field is missing").in(path + "." + key));
  }
  if constexpr (std::is_integral_v<T>) {
    // nlohmann converts out-of-range numbers silently; check the range ourselves.
    const bool fits = (it->is_number_unsigned() && it->template get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max())) ||
                      (it->is_number_integer() && !it->is_number_unsigned() && std::is_signed_v<T> &&
                       it->template get<std::int64_t>() >= std::int64_t(std::numeric_limits<T>::min()));
    if (!fits) {
      return fail(Diagnostic::error("command_log.field_type", "field is not an integer in range")
                      .in(path + "." + key)
                      .expect(fmt::format("integer {}..{}", std::numeric_limits<T>::min(), std::numeric_limits<T>::max()), it->dump()));
    }
  }
  try {
    return it->template get<T>();
  } catch (const core::Json::exception& e) {
    return fail(Diagnostic::error("command_log.field_type", "field has the wrong type or range")
                    .in(path + "." + key)
                    .expect(e.what(), it->dump()));
  }
}

}  // namespace

core::Result<CommandLog> command_log_from_json(const core::Json& json) {
  if (!json.is_object()) return fail(Diagnostic::error("command_log.not_object", "command log must be a JSON object"));
  SORTIE_TRY(auto format, json_field<std::string>(json, "format", "log"));
  if (format != kJsonFormat) {
    return fail(Diagnostic::error("command_log.format", "unknown command log format").in("format").expect(std::string(kJsonFormat), format));
  }
  auto it = json.find("commands");
  if (it == json.end() || !it->is_array()) {
    return fail(Diagnostic::error("command_log.field_missing", "commands must be an array").in("commands"));
  }
  CommandLog log;
  log.commands.reserve(it->size());
  for (std::size_t i = 0; i < it->size(); ++i) {
    const core::Json& j = (*it)[i];
    const std::string path = fmt::format("commands[{}]", i);
    if (!j.is_object()) return fail(Diagnostic::error("command_log.not_object", "command must be an object").in(path));
    Command c;
    SORTIE_TRY(c.tick, json_field<std::uint64_t>(j, "tick", path));
    SORTIE_TRY(auto kind, json_field<std::string>(j, "kind", path));
    bool found = false;
    for (const auto& [k, name] : kKinds) {
      if (name == kind) {
        c.kind = k;
        found = true;
      }
    }
    if (!found) {
      return fail(Diagnostic::error("command_log.kind_unknown", "unknown command kind").in(path + ".kind").expect("move|stop|pause|set_speed|spawn|remove|set_property|route", kind));
    }
    auto target = j.find("target");
    if (target == j.end() || !target->is_object()) {
      return fail(Diagnostic::error("command_log.field_missing", "target must be an object").in(path + ".target"));
    }
    SORTIE_TRY(c.target.owner, json_field<std::uint16_t>(*target, "owner", path + ".target"));
    SORTIE_TRY(c.target.class_id, json_field<std::uint16_t>(*target, "class", path + ".target"));
    SORTIE_TRY(c.target.index, json_field<std::uint32_t>(*target, "index", path + ".target"));
    // The bit patterns are authoritative; the plain numbers are for people reading the log.
    SORTIE_TRY(auto xb, json_field<std::uint32_t>(j, "x_bits", path));
    SORTIE_TRY(auto yb, json_field<std::uint32_t>(j, "y_bits", path));
    SORTIE_TRY(auto zb, json_field<std::uint32_t>(j, "z_bits", path));
    SORTIE_TRY(auto sb, json_field<std::uint32_t>(j, "speed_bits", path));
    c.x = std::bit_cast<float>(xb);
    c.y = std::bit_cast<float>(yb);
    c.z = std::bit_cast<float>(zb);
    c.speed = std::bit_cast<float>(sb);
    SORTIE_TRY(c.value, json_field<std::int64_t>(j, "value", path));
    SORTIE_TRY(c.text, json_field<std::string>(j, "text", path));
    log.commands.push_back(std::move(c));
  }
  return log;
}

// ---------------------------------------------------------------- bytes

core::Bytes write_command_log(const CommandLog& log) {
  core::ByteWriter w(16 + log.commands.size() * kMinCommandBytes);
  w.bytes(std::string_view("SCLG"));
  w.u32(kBytesVersion);
  w.u32(static_cast<std::uint32_t>(log.commands.size()));
  for (const Command& c : log.commands) {
    w.u64(c.tick);
    w.u8(static_cast<std::uint8_t>(c.kind));
    w.u64(c.target.raw());
    w.f32(c.x);
    w.f32(c.y);
    w.f32(c.z);
    w.f32(c.speed);
    w.u64(static_cast<std::uint64_t>(c.value));
    w.lp_string(c.text);
  }
  return w.take();
}

core::Result<CommandLog> read_command_log(core::ByteView bytes) {
  core::ByteReader r(bytes, "command log");
  r.set_code_prefix("command_log");
  SORTIE_TRY(auto magic, r.bytes(4));
  if (core::as_chars(magic) != "SCLG") {
    return fail(Diagnostic::error("command_log.magic", "not a sortie command log").at(0).in("magic").expect("SCLG", core::to_hex(magic)));
  }
  SORTIE_TRY(auto version, r.u32());
  if (version != kBytesVersion) {
    return fail(Diagnostic::error("command_log.version", "unknown command log version").at(4).in("version").expect("1", std::to_string(version)));
  }
  SORTIE_TRY(auto count, r.u32());
  SORTIE_CHECK(r.check_count(count, kMinCommandBytes, "commands"));  // before reserving
  const std::size_t n = count;
  CommandLog log;
  log.commands.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = r.offset();
    Command c;
    SORTIE_TRY(c.tick, r.u64());
    SORTIE_TRY(auto kind, r.u8());
    if (!known_kind(kind)) {
      return fail(Diagnostic::error("command_log.kind_unknown", "unknown command kind")
                      .at(at + 8).in(fmt::format("commands[{}].kind", i)).expect("1..8", std::to_string(kind)));
    }
    c.kind = static_cast<CommandKind>(kind);
    SORTIE_TRY(auto raw, r.u64());
    c.target = ObjectId::from_raw(raw);
    SORTIE_TRY(c.x, r.f32());
    SORTIE_TRY(c.y, r.f32());
    SORTIE_TRY(c.z, r.f32());
    SORTIE_TRY(c.speed, r.f32());
    SORTIE_TRY(auto value, r.u64());
    c.value = static_cast<std::int64_t>(value);
    SORTIE_TRY(c.text, r.lp_string());
    log.commands.push_back(std::move(c));
  }
  SORTIE_CHECK(r.require_end("command log"));
  return log;
}

}  // namespace sortie::world
