// The v1 movement kinds (move, route): registered like any plug-in kind.
#include "sortie/move/v1_commands.hpp"

#include <fmt/format.h>

#include <bit>
#include <optional>

#include "sortie/move/v1_movers.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/legacy_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::move {

using core::Diagnostic;
using core::fail;
using core::Json;
using core::Vec2;
using world::command_kind;
using world::CommandKindInfo;
using world::CommandOutcome;
using world::CommandRegistry;
using world::encode_payload;
using world::json_get_array;
using world::json_get_f32;
using world::json_get_object_id;
using world::json_put_f32;
using world::json_put_object_id;
using world::LegacyCommandFields;
using world::World;
using world::WorldObject;
namespace legacy = world::legacy;

namespace {

constexpr std::size_t kWaypointChars = 17;  // 8 hex digits, ',', 8 hex digits
constexpr std::size_t kWaypointBytes = 8;   // f32 x, f32 y

core::Status invalid(std::string_view kind, std::string what) {
  return fail(Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(kind)));
}

bool finite_speed(float speed) {
  return core::is_finite(speed) && speed > 0.0f;
}

}  // namespace

// ---------------------------------------------------------------- move

void MoveCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.f32(goal.x);
  out.f32(goal.y);
  out.f32(speed);
}

core::Result<MoveCommand> MoveCommand::read(core::ByteReader& in) {
  MoveCommand c;
  SORTIE_TRY(auto raw, in.u64());
  c.target = ObjectId::from_raw(raw);
  SORTIE_TRY(c.goal.x, in.f32());
  SORTIE_TRY(c.goal.y, in.f32());
  SORTIE_TRY(c.speed, in.f32());
  return c;
}

void MoveCommand::to_json(Json& out) const {
  json_put_object_id(out, "target", target);
  json_put_f32(out, "x", goal.x);
  json_put_f32(out, "y", goal.y);
  json_put_f32(out, "speed", speed);
}

core::Result<MoveCommand> MoveCommand::from_json(const Json& in, const std::string& path) {
  MoveCommand c;
  SORTIE_TRY(c.target, json_get_object_id(in, "target", path));
  SORTIE_TRY(c.goal.x, json_get_f32(in, "x", path));
  SORTIE_TRY(c.goal.y, json_get_f32(in, "y", path));
  SORTIE_TRY(c.speed, json_get_f32(in, "speed", path));
  return c;
}

// ---------------------------------------------------------------- route

void RouteCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.f32(speed);
  out.u32(static_cast<std::uint32_t>(waypoints.size()));
  for (const Vec2& p : waypoints) {
    out.f32(p.x);
    out.f32(p.y);
  }
}

core::Result<RouteCommand> RouteCommand::read(core::ByteReader& in) {
  RouteCommand c;
  SORTIE_TRY(auto raw, in.u64());
  c.target = ObjectId::from_raw(raw);
  SORTIE_TRY(c.speed, in.f32());
  SORTIE_TRY(auto count, in.u32());
  SORTIE_CHECK(in.check_count(count, kWaypointBytes, "waypoints"));  // before reserving
  c.waypoints.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    Vec2 p;
    SORTIE_TRY(p.x, in.f32());
    SORTIE_TRY(p.y, in.f32());
    c.waypoints.push_back(p);
  }
  return c;
}

void RouteCommand::to_json(Json& out) const {
  json_put_object_id(out, "target", target);
  json_put_f32(out, "speed", speed);
  Json points = Json::array();
  for (const Vec2& p : waypoints) {
    Json j = Json::object();
    json_put_f32(j, "x", p.x);
    json_put_f32(j, "y", p.y);
    points.push_back(std::move(j));
  }
  out["waypoints"] = std::move(points);
}

core::Result<RouteCommand> RouteCommand::from_json(const Json& in, const std::string& path) {
  RouteCommand c;
  SORTIE_TRY(c.target, json_get_object_id(in, "target", path));
  SORTIE_TRY(c.speed, json_get_f32(in, "speed", path));
  SORTIE_TRY(const Json* points, json_get_array(in, "waypoints", path));
  c.waypoints.reserve(points->size());
  for (std::size_t i = 0; i < points->size(); ++i) {
    const std::string at = fmt::format("{}.waypoints[{}]", path, i);
    Vec2 p;
    SORTIE_TRY(p.x, json_get_f32((*points)[i], "x", at));
    SORTIE_TRY(p.y, json_get_f32((*points)[i], "y", at));
    c.waypoints.push_back(p);
  }
  return c;
}

// ---------------------------------------------------------------- v1 waypoint text

std::string encode_waypoints(const std::vector<Vec2>& waypoints) {
  std::string out;
  out.reserve(waypoints.size() * (kWaypointChars + 1));
  for (std::size_t i = 0; i < waypoints.size(); ++i) {
    if (i > 0) out.push_back(';');
    out += fmt::format("{:08x},{:08x}", std::bit_cast<std::uint32_t>(waypoints[i].x),
                       std::bit_cast<std::uint32_t>(waypoints[i].y));
  }
  return out;
}

core::Result<std::vector<Vec2>> decode_waypoints(std::string_view text) {
  auto bad = [&](std::size_t at, std::string expected) {
    return fail(Diagnostic::error("world.command.waypoints", "malformed route waypoints")
                    .at(at)
                    .in("text")
                    .expect(std::move(expected), std::string(text.substr(at, 18))));
  };
  if (text.empty()) return bad(0, "at least one waypoint");
  if ((text.size() + 1) % (kWaypointChars + 1) != 0) return bad(0, "18 * n - 1 characters");
  const std::size_t n = (text.size() + 1) / (kWaypointChars + 1);
  std::vector<Vec2> out;
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
    out.push_back(Vec2{std::bit_cast<float>(*x), std::bit_cast<float>(*y)});
  }
  return out;
}

// ---------------------------------------------------------------- registration

core::Status register_v1_move_commands(CommandRegistry& registry) {
  using legacy::Field;

  CommandKindInfo move = command_kind<MoveCommand>(
      [](const World&, const MoveCommand& c) -> core::Status {
        if (!core::is_finite(c.goal) || !finite_speed(c.speed)) {
          return invalid(MoveCommand::kName, "move needs a finite target and a finite speed > 0");
        }
        return {};
      },
      [](World& w, const MoveCommand& c) -> core::Result<CommandOutcome> {
        WorldObject* o = w.find_live(c.target);
        if (o == nullptr) return CommandOutcome::skipped;
        if (auto* existing = dynamic_cast<MoveController*>(o->controller.get())) {
          existing->order(c.goal, c.speed);
        } else {
          o->controller = std::make_unique<MoveController>(c.goal, c.speed, w.height_field());
        }
        return CommandOutcome::applied;
      });
  move.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kTarget | Field::kX | Field::kY | Field::kSpeed, MoveCommand::kName));
    return encode_payload(MoveCommand{f.target, Vec2{f.x, f.y}, f.speed});
  };
  SORTIE_CHECK(registry.register_kind(std::move(move)));

  CommandKindInfo route = command_kind<RouteCommand>(
      [](const World&, const RouteCommand& c) -> core::Status {
        if (!finite_speed(c.speed)) return invalid(RouteCommand::kName, "route needs a finite speed > 0");
        if (c.waypoints.empty()) return invalid(RouteCommand::kName, "route needs at least one waypoint");
        for (const Vec2& p : c.waypoints) {
          if (!core::is_finite(p)) return invalid(RouteCommand::kName, "route waypoints must be finite");
        }
        return {};
      },
      [](World& w, const RouteCommand& c) -> core::Result<CommandOutcome> {
        WorldObject* o = w.find_live(c.target);
        if (o == nullptr) return CommandOutcome::skipped;
        o->controller = std::make_unique<RouteController>(c.waypoints, c.speed, w.height_field());
        return CommandOutcome::applied;
      });
  // v1: text = the waypoints, x/y = a copy of the last waypoint (for readers of the log).
  route.from_legacy = [](const LegacyCommandFields& f) -> core::Result<core::Bytes> {
    SORTIE_CHECK(legacy::require_unused(f, Field::kTarget | Field::kX | Field::kY | Field::kSpeed | Field::kText,
                                        RouteCommand::kName));
    SORTIE_TRY(auto waypoints, decode_waypoints(f.text));
    const Vec2 last = waypoints.back();
    if (std::bit_cast<std::uint32_t>(last.x) != std::bit_cast<std::uint32_t>(f.x) ||
        std::bit_cast<std::uint32_t>(last.y) != std::bit_cast<std::uint32_t>(f.y)) {
      return fail(legacy::field_error(
          RouteCommand::kName, "x", "x, y must repeat the last waypoint",
          fmt::format("{:08x},{:08x}", std::bit_cast<std::uint32_t>(last.x), std::bit_cast<std::uint32_t>(last.y)),
          fmt::format("{:08x},{:08x}", std::bit_cast<std::uint32_t>(f.x), std::bit_cast<std::uint32_t>(f.y))));
    }
    return encode_payload(RouteCommand{f.target, std::move(waypoints), f.speed});
  };
  return registry.register_kind(std::move(route));
}

}  // namespace sortie::move
