#include "sortie/mission/play_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "sortie/core/hash.hpp"
#include "sortie/mission/save_image.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/components.hpp"
#include "sortie/scenario/super_ai.hpp"
#include "sortie/world/world.hpp"

namespace sortie::mission {

namespace {

core::Diagnostic action_field(std::string_view field, std::string_view expected) {
  return core::Diagnostic::error("save.field", fmt::format("an action's '{}' is missing or not {}", field, expected));
}

std::optional<world::ObjectId> parse_id(const core::Json& j) {
  if (!j.is_string()) return std::nullopt;
  const auto v = parse_hex64(j.get<std::string>());
  if (!v) return std::nullopt;
  return world::ObjectId::from_raw(*v);
}

bool finite_float(const core::Json& j, float& out) {
  if (!j.is_number()) return false;
  const double d = j.get<double>();
  if (!std::isfinite(d) || std::fabs(d) > 1e30) return false;
  out = static_cast<float>(d);
  return true;
}

}  // namespace

std::optional<std::uint64_t> parse_hex64(std::string_view s) {
  std::uint64_t v = 0;
  if (s.size() != 16) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

core::Json action_json(const PlayAction& a) {
  core::Json units = core::Json::array();
  for (const auto& u : a.units) units.push_back(core::hash_hex(u.raw()));
  core::Json j{{"tick", a.tick}, {"kind", to_string(a.kind)}, {"units", std::move(units)}};
  switch (a.kind) {
    case ActionKind::go:
      j["point"] = {a.point.x, a.point.y};
      break;
    case ActionKind::follow:
      j["target"] = core::hash_hex(a.target.raw());
      break;
    case ActionKind::halt:
      break;
    case ActionKind::drive:
      j["speed"] = a.speed;
      j["turn"] = a.turn;
      break;
  }
  return j;
}

core::Result<PlayAction> action_from_json(const core::Json& j) {
  PlayAction a;
  if (!j.is_object()) return core::fail(action_field("action", "an object"));
  if (!j.contains("tick") || !j["tick"].is_number_unsigned()) return core::fail(action_field("tick", "a tick"));
  a.tick = j["tick"].get<std::uint64_t>();
  const std::string kind = j.contains("kind") && j["kind"].is_string() ? j["kind"].get<std::string>() : "";
  if (kind == "go") {
    a.kind = ActionKind::go;
  } else if (kind == "follow") {
    a.kind = ActionKind::follow;
  } else if (kind == "halt") {
    a.kind = ActionKind::halt;
  } else if (kind == "drive") {
    a.kind = ActionKind::drive;
  } else {
    return core::fail(action_field("kind", "go, follow, halt or drive"));
  }
  if (!j.contains("units") || !j["units"].is_array() || j["units"].empty() || j["units"].size() > 4096)
    return core::fail(action_field("units", "1..4096 object ids"));
  for (const auto& u : j["units"]) {
    const auto id = parse_id(u);
    if (!id) return core::fail(action_field("units", "16 hex digits each"));
    a.units.push_back(*id);
  }
  if (a.kind == ActionKind::go) {
    const core::Json* p = j.contains("point") ? &j["point"] : nullptr;
    if (p == nullptr || !p->is_array() || p->size() != 2 || !finite_float((*p)[0], a.point.x) ||
        !finite_float((*p)[1], a.point.y))
      return core::fail(action_field("point", "two finite numbers"));
  } else if (a.kind == ActionKind::follow) {
    const auto id = j.contains("target") ? parse_id(j["target"]) : std::nullopt;
    if (!id) return core::fail(action_field("target", "16 hex digits"));
    a.target = *id;
  } else if (a.kind == ActionKind::drive) {
    if (!j.contains("speed") || !finite_float(j["speed"], a.speed)) return core::fail(action_field("speed", "finite"));
    if (!j.contains("turn") || !finite_float(j["turn"], a.turn)) return core::fail(action_field("turn", "finite"));
  }
  return a;
}

struct PlaySession::Impl {
  LoadedMission& mission;
  PlayOptions options;
  std::unique_ptr<scenario::ScenarioRuntime> runtime;
  std::int32_t clan = -1;
  std::string clan_name;
  OrderPlanner planner;
  std::vector<PlayAction> actions;

  Impl(LoadedMission& m, PlayOptions o, MapBounds bounds) : mission(m), options(o), planner(bounds, std::move(o)) {}

  world::World& w() { return *mission.world; }
  [[nodiscard]] const world::World& w() const { return *mission.world; }

  [[nodiscard]] const world::WorldObject* live(world::ObjectId id) const {
    const auto h = w().lookup(id);
    const world::WorldObject* o = h ? w().find(*h) : nullptr;
    return o != nullptr && !o->pending_delete() ? o : nullptr;
  }

  [[nodiscard]] bool commandable(world::ObjectId id) const {
    const world::WorldObject* o = live(id);
    if (o == nullptr || clan < 0) return false;
    const move::Body* body = o->components.get<move::Body>();
    if (body == nullptr || body->is_static) return false;
    const auto c = o->properties.get_int("clan");
    return c && *c == clan;
  }

  [[nodiscard]] CommandSink sink() {
    return [this](world::Command c) { return w().submit(std::move(c)); };
  }

  // Records and applies an action for the commandable ones of its units; 0 when none can.
  // The "input" trace line of a player's action: its kind, units and what it aims at.
  static std::string action_text(const PlayAction& a) {
    std::string text = fmt::format("player {} at tick {}:", to_string(a.kind), a.tick);
    for (const auto& u : a.units) text += " " + u.to_string();
    if (a.kind == ActionKind::go) text += fmt::format(" to ({:.2f}, {:.2f})", a.point.x, a.point.y);
    if (a.kind == ActionKind::follow) text += " following " + a.target.to_string();
    if (a.kind == ActionKind::drive) text += fmt::format(" speed {} turn {}", a.speed, a.turn);
    return text;
  }

  std::size_t give(PlayAction a) {
    if (decided_now()) return 0;
    auto units = commandable_units(a.units, [this](world::ObjectId id) { return commandable(id); });
    if (units.empty()) return 0;
    if (a.kind == ActionKind::follow && live(a.target) == nullptr) return 0;
    a.units = units;
    a.tick = w().clock().tick;
    if (auto st = planner.act(w(), a, units, sink()); !st) return 0;
    if (world::Trace* t = world::traced(w(), "input")) t->write("input", action_text(a));
    actions.push_back(std::move(a));
    return units.size();
  }

  [[nodiscard]] bool decided_now() const { return scenario_decided(w()); }
};

PlaySession::PlaySession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PlaySession::~PlaySession() = default;

core::Result<std::unique_ptr<PlaySession>> PlaySession::start(LoadedMission& mission, PlayOptions options) {
  if (mission.world == nullptr || mission.data == nullptr)
    return core::fail(core::Diagnostic::error("play.start", "no loaded mission to play"));
  auto impl = std::make_unique<Impl>(mission, std::move(options), map_bounds(*mission.data));
  impl->clan_name = scenario::player_clan(mission.data->tma);
  const auto& clans = mission.data->tma.clans;
  for (std::size_t i = 0; i < clans.size(); ++i)
    if (!impl->clan_name.empty() && clans[i].name == impl->clan_name) impl->clan = static_cast<std::int32_t>(i);
  SORTIE_TRY(impl->runtime, make_scenario_runtime(mission, impl->options.runtime, /*human=*/true));
  world::World& w = *mission.world;
  for (world::Command& c : movement_start_commands(mission, impl->options.scenario, w.clock().tick))
    SORTIE_CHECK(w.submit(std::move(c)));
  if (impl->runtime) SORTIE_CHECK(scenario_before_tick(*impl->runtime, w));  // the first step is start()
  return std::unique_ptr<PlaySession>(new PlaySession(std::move(impl)));
}

core::Status PlaySession::tick() {
  Impl& m = *impl_;
  if (m.decided_now()) return {};
  SORTIE_CHECK(m.planner.refresh_follows(m.w(), m.sink()));
  SORTIE_CHECK(m.w().tick());
  if (m.runtime) SORTIE_CHECK(scenario_before_tick(*m.runtime, m.w()));
  return {};
}

std::uint64_t PlaySession::tick_number() const {
  return impl_->w().clock().tick;
}
bool PlaySession::decided() const {
  return impl_->decided_now();
}
std::uint64_t PlaySession::state_hash() const {
  const world::World& w = impl_->w();
  return w.clock().tick == 0 ? w.compute_state_hash() : w.last_hash();
}
std::int32_t PlaySession::player_clan() const {
  return impl_->clan;
}
const std::string& PlaySession::player_clan_name() const {
  return impl_->clan_name;
}

std::optional<std::int32_t> PlaySession::clan_of(world::ObjectId id) const {
  const world::WorldObject* o = impl_->live(id);
  if (o == nullptr) return std::nullopt;
  const auto c = o->properties.get_int("clan");
  if (!c) return std::nullopt;
  return static_cast<std::int32_t>(*c);
}

bool PlaySession::commandable(world::ObjectId id) const {
  return impl_->commandable(id);
}

std::vector<world::ObjectId> PlaySession::player_units() const {
  std::vector<world::ObjectId> out;
  const world::World& w = impl_->w();
  for (const world::Handle h : w.queue())
    if (const world::WorldObject* o = w.find(h); o != nullptr && impl_->commandable(o->id())) out.push_back(o->id());
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t PlaySession::go(std::span<const world::ObjectId> units, core::Vec2 point) {
  if (!std::isfinite(point.x) || !std::isfinite(point.y)) return 0;
  PlayAction a;
  a.kind = ActionKind::go;
  a.units.assign(units.begin(), units.end());
  a.point = point;
  return impl_->give(std::move(a));
}

std::size_t PlaySession::follow(std::span<const world::ObjectId> units, world::ObjectId target) {
  PlayAction a;
  a.kind = ActionKind::follow;
  for (const auto& u : units)
    if (u != target) a.units.push_back(u);
  a.target = target;
  return impl_->give(std::move(a));
}

std::size_t PlaySession::halt(std::span<const world::ObjectId> units) {
  PlayAction a;
  a.kind = ActionKind::halt;
  a.units.assign(units.begin(), units.end());
  return impl_->give(std::move(a));
}

std::size_t PlaySession::drive(world::ObjectId unit, float speed, float turn) {
  const auto clamped = clamp_drive(impl_->options, speed, turn);
  if (!clamped) return 0;
  PlayAction a;
  a.kind = ActionKind::drive;
  a.units = {unit};
  a.speed = clamped->first;
  a.turn = clamped->second;
  return impl_->give(std::move(a));
}

core::Status PlaySession::apply(const PlayAction& action) {
  const std::uint64_t tick = tick_number();
  if (action.tick != tick)
    return core::fail(
        core::Diagnostic::error("play.action", fmt::format("an action of tick {} at tick {}", action.tick, tick)));
  const std::size_t before = impl_->actions.size();
  impl_->give(action);
  if (impl_->actions.size() == before || impl_->actions.back().units != action.units)
    return core::fail(core::Diagnostic::error(
        "play.action",
        fmt::format("the {} action of tick {} does not apply to the same units", to_string(action.kind), tick)));
  return {};
}

std::optional<world::ObjectId> PlaySession::following(world::ObjectId unit) const {
  return impl_->planner.following(unit);
}

std::optional<PlayAction> PlaySession::last_action() const {
  if (impl_->actions.empty()) return std::nullopt;
  return impl_->actions.back();
}

const world::World& PlaySession::world() const {
  return impl_->w();
}

const std::vector<PlayAction>& PlaySession::actions() const {
  return impl_->actions;
}

std::optional<ScenarioSummary> PlaySession::summary() const {
  return summarize_scenario(impl_->w(), impl_->runtime.get());
}

const std::vector<scenario::TraceLine>& PlaySession::messages() const {
  static const std::vector<scenario::TraceLine> kNone;
  return impl_->runtime ? impl_->runtime->messages() : kNone;
}

std::uint64_t PlaySession::message_count() const {
  return impl_->runtime ? impl_->runtime->message_count() : 0;
}

const scenario::ScenarioRuntime* PlaySession::runtime() const {
  return impl_->runtime.get();
}
LoadedMission& PlaySession::mission() {
  return impl_->mission;
}
const LoadedMission& PlaySession::mission() const {
  return impl_->mission;
}
const PlayOptions& PlaySession::options() const {
  return impl_->options;
}

core::Result<std::unique_ptr<PlaySession>> replay_play(LoadedMission& mission, const PlayOptions& options,
                                                       std::span<const PlayAction> actions, std::uint64_t tick,
                                                       std::optional<std::uint64_t> expect_hash,
                                                       const core::Json* expect_image) {
  SORTIE_TRY(auto play, PlaySession::start(mission, options));
  std::size_t next = 0;
  while (true) {
    const std::uint64_t now = play->tick_number();
    while (next < actions.size() && actions[next].tick == now) SORTIE_CHECK(play->apply(actions[next++]));
    if (next < actions.size() && actions[next].tick < now)
      return core::fail(core::Diagnostic::error(
          "play.action",
          fmt::format("action {} of tick {} is out of order or after the end", next, actions[next].tick)));
    if (now >= tick || play->decided()) break;
    SORTIE_CHECK(play->tick());
  }
  if (next != actions.size())
    return core::fail(core::Diagnostic::error(
        "play.action", fmt::format("{} action(s) after tick {} were not applied", actions.size() - next, tick)));
  if (play->tick_number() != tick)
    return core::fail(core::Diagnostic::error(
        "save.mismatch",
        fmt::format("the game ended at tick {}, before the saved tick {}", play->tick_number(), tick)));
  if (expect_image != nullptr)
    SORTIE_CHECK(
        compare_save_image(*expect_image, save_image(play->world(), play->runtime()), tick, clan_namer(*mission.data)));
  if (expect_hash && play->state_hash() != *expect_hash)
    return core::fail(
        core::Diagnostic::error("save.mismatch", fmt::format("re-played to tick {}, the world differs from the save: "
                                                             "another game, build or a changed mission",
                                                             tick))
            .expect(core::hash_hex(*expect_hash), core::hash_hex(play->state_hash())));
  return play;
}

}  // namespace sortie::mission
