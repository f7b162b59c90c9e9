#include "sortie/env/effect_world.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "sortie/core/json.hpp"
#include "sortie/env/class_ids.hpp"
#include "sortie/env/limits.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/controller.hpp"
#include "sortie/world/payload_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::env {

using core::Diagnostic;
using world::CommandOutcome;
using world::World;

namespace {

core::Status invalid(std::string what) {
  return core::fail(
      Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(StartEffectCommand::kName)));
}

// Drops the instances whose end the game time reached (after the tick's step).
class EffectsController final : public world::Controller {
 public:
  [[nodiscard]] std::string_view kind() const override { return "fx"; }
  void update(world::UpdateContext& ctx) override {
    auto* state = ctx.self.components.get<EffectsState>();
    if (state == nullptr) return;
    const std::uint64_t now = ctx.clock.time_us;
    std::erase_if(state->live, [now](const EffectInstanceState& s) { return s.end_us <= now; });
  }
  void encode(world::StateWriter&) const override {}  // no state of its own: EffectsState is
  [[nodiscard]] std::unique_ptr<world::Controller> clone() const override {
    return std::make_unique<EffectsController>();
  }
};

core::Status validate_payload(const StartEffectCommand& c) {
  if (c.name.empty() || c.name.size() > kEffectNameMax)
    return invalid(fmt::format("an effect name has 1..{} bytes (found {})", kEffectNameMax, c.name.size()));
  if (!core::is_finite(c.position)) return invalid("an effect's position must be finite");
  if (c.lifetime_ms < 1 || c.lifetime_ms > kEffectLifetimeMaxMs)
    return invalid(fmt::format("an effect's lifetime is 1..{} ms (found {})", kEffectLifetimeMaxMs, c.lifetime_ms));
  return {};
}

// With the mission's effects: the name is one of them and the lifetime its header's.
core::Status validate_against(const EffectLibrary& library, const StartEffectCommand& c) {
  const auto e = library.find(c.name);
  if (!e) return invalid(fmt::format("'{}' is not an effect the mission prepared", c.name));
  if (e->lifetime_ms != static_cast<std::int64_t>(c.lifetime_ms))
    return core::fail(Diagnostic::error("world.command.invalid",
                                        fmt::format("the lifetime of '{}' is its header's ({} ms), not {} ms", c.name,
                                                    e->lifetime_ms, c.lifetime_ms))
                          .in(std::string(StartEffectCommand::kName))
                          .expect(fmt::format("{} ms", e->lifetime_ms), fmt::format("{} ms", c.lifetime_ms)));
  return {};
}

core::Result<CommandOutcome> apply_start(World& w, const StartEffectCommand& c) {
  const world::ObjectId id = effects_object_id(w);
  world::WorldObject* o = w.find_live(id);
  if (o == nullptr) {
    if (w.lookup(id)) return CommandOutcome::skipped;  // pending deletion: nothing to add to
    SORTIE_CHECK(w.classes().add(kClasses));
    SORTIE_TRY(const world::Handle h, w.create_object(id, "effects"));
    o = w.find(h);
    o->visible = false;  // not drawn as an object, not in snapshots
    o->components.emplace(EffectsState{});
    o->controller = std::make_unique<EffectsController>();
    SORTIE_CHECK(w.add_to_game(h));
  }
  auto* state = o->components.get<EffectsState>();
  if (state == nullptr || state->live.size() >= kLiveEffectsMax) return CommandOutcome::skipped;
  EffectInstanceState s;
  s.id = state->next_id++;
  s.name = c.name;
  s.position = c.position;
  s.start_us = w.clock().time_us;
  s.end_us = s.start_us + std::uint64_t{c.lifetime_ms} * 1000;
  state->live.push_back(std::move(s));
  ++state->started;
  return CommandOutcome::applied;
}

}  // namespace

template <class Self, class V>
void StartEffectCommand::fields(Self& c, V& v) {
  v(c.name, "name", world::field::Text{static_cast<std::uint32_t>(kEffectNameMax)});
  v(c.position.x, "x");
  v(c.position.y, "y");
  v(c.position.z, "z");
  v(c.lifetime_ms, "lifetime_ms");
}

void EffectsState::image(nlohmann::json& out) const {
  core::Json effects = core::Json::array();
  for (const EffectInstanceState& s : live)
    effects.push_back(core::Json::array({s.id, s.name, core::vec3_json(s.position), s.start_us, s.end_us}));
  out = core::Json{{"next_id", next_id}, {"started", started}, {"live", std::move(effects)}};
}

void EffectsState::encode(world::StateWriter& out) const {
  out.u32(next_id);
  out.u64(started);
  out.u32(static_cast<std::uint32_t>(live.size()));
  for (const EffectInstanceState& s : live) {
    out.u32(s.id);
    out.str(s.name);
    out.f32(s.position.x);
    out.f32(s.position.y);
    out.f32(s.position.z);
    out.u64(s.start_us);
    out.u64(s.end_us);
  }
}

world::ObjectId effects_object_id(const World& world) {
  return world::ObjectId{world.local_player(), class_ids::kEffects, 1};
}

const EffectsState* find_effects_state(const World& world) {
  const auto h = world.lookup(effects_object_id(world));
  const world::WorldObject* o = h ? world.find(*h) : nullptr;
  return o != nullptr ? o->components.get<EffectsState>() : nullptr;
}

std::vector<EffectInstanceState> live_effects(const World& world) {
  const EffectsState* s = find_effects_state(world);
  return s != nullptr ? s->live : std::vector<EffectInstanceState>{};
}

core::Result<StartEffectCommand> start_effect_command(const EffectLibrary& library, std::string_view name,
                                                      const core::Vec3& position) {
  const auto e = library.find(name);
  if (!e) {
    const auto names = library.names();
    return core::fail(
        Diagnostic::error("fx.unknown",
                          fmt::format("no effect '{}' among the mission's effects ({})", name,
                                      names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))))
            .expect("an effect the mission prepared", std::string(name)));
  }
  if (e->lifetime_ms < 1 || e->lifetime_ms > static_cast<std::int64_t>(kEffectLifetimeMaxMs))
    return core::fail(Diagnostic::error("fx.lifetime", fmt::format("the effect '{}' lives {} ms: a world keeps "
                                                                   "effects of 1..{} ms",
                                                                   e->label(), e->lifetime_ms, kEffectLifetimeMaxMs))
                          .expect(fmt::format("1..{} ms", kEffectLifetimeMaxMs), fmt::format("{} ms", e->lifetime_ms)));
  if (!core::is_finite(position))
    return core::fail(Diagnostic::error("fx.position", "an effect's position must be finite"));
  StartEffectCommand c;
  c.name = std::string(name);
  c.position = position;
  c.lifetime_ms = static_cast<std::uint32_t>(e->lifetime_ms);
  return c;
}

core::Status register_effect_commands(world::CommandRegistry& registry, std::shared_ptr<const EffectLibrary> library) {
  return registry.register_kind(world::command_kind<StartEffectCommand>(
      [library = std::move(library)](const World&, const StartEffectCommand& c) -> core::Status {
        SORTIE_CHECK(validate_payload(c));
        if (library) return validate_against(*library, c);
        return {};
      },
      apply_start));
}

}  // namespace sortie::env

template struct sortie::world::PayloadCodec<sortie::env::StartEffectCommand>;
