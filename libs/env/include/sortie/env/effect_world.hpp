#pragma once
// Effects as world state (issue #18 part 4; docs/effects.md): the command kind that starts one and
// the component that holds the live ones, so an effect is logged, replayed, hashed and mirrored
// over the network like every other input.
//
//   53 fx.start   lp name (1..kEffectNameMax bytes: "name" in effects.rlb or "archive/name"),
//                 f32 x y z (finite), u32 lifetime_ms (1..kEffectLifetimeMaxMs): the effect's
//                 header lifetime, which the issuer read from the mission's effects
//                 (start_effect_command), so that applying, replaying and mirroring the command
//                 need no game data. With a library bound (register_effect_commands), submit also
//                 checks that the name is one the mission prepared and that the lifetime is its
//                 header's (world.command.invalid otherwise).
//
// Applied at the start of its tick: the first fx.start creates the effects object ({local player,
// class 44, index 1}, invisible, controller "fx") holding EffectsState; each adds a live instance
// {id = next id, name, position, start = the game time of the tick, end = start + lifetime}. More
// than kLiveEffectsMax live instances: skipped. The controller drops an instance in the first
// tick whose game time (after the tick's step) reaches its end: an instance of lifetime L started
// at game time s is in the state after every tick whose time t satisfies t < s + L.
//
// What presentation runs (lights, sounds, bodies) is EffectRunner::sync over live_effects();
// nothing of it is world state.
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/ids.hpp"
#include "sortie/world/state_writer.hpp"

namespace sortie::world {
class CommandRegistry;
class World;
}  // namespace sortie::world

namespace sortie::env {

struct StartEffectCommand {
  static constexpr std::string_view kName = "fx.start";
  static constexpr world::CommandKindId kWireId = 53;
  std::string name{};
  core::Vec3 position{};
  std::uint32_t lifetime_ms = 0;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const StartEffectCommand&, const StartEffectCommand&) = default;
};

// The component "env.effects" on the effects object: hashed in this order.
struct EffectsState {
  static constexpr std::string_view kComponentName = "env.effects";
  std::uint32_t next_id = 1;
  std::uint64_t started = 0;              // fx.start applied, ever
  std::vector<EffectInstanceState> live;  // start order
  void encode(world::StateWriter& out) const;
  // A save's image: {"next_id", "started", "live": [[id, name, [x, y, z], start_us, end_us], ...]}.
  void image(nlohmann::json& out) const;
};

// {local player, class 44, index 1}.
world::ObjectId effects_object_id(const world::World& world);
// Null before the first fx.start.
const EffectsState* find_effects_state(const world::World& world);
// A copy of the live instances (what presentation syncs to); empty before the first fx.start.
std::vector<EffectInstanceState> live_effects(const world::World& world);

// The command for `name` at `position`, its lifetime from the library's definition. Errors:
// fx.unknown (not an effect the mission prepared; the message lists them), fx.lifetime (a
// lifetime below 1 ms or over kEffectLifetimeMaxMs: nothing a world would keep), fx.position (not
// finite).
core::Result<StartEffectCommand> start_effect_command(const EffectLibrary& library, std::string_view name,
                                                      const core::Vec3& position);

// Registers fx.start. `library`: the mission's effects, or null (a replica, a replay without game
// data): then only the payload's own bounds are checked.
core::Status register_effect_commands(world::CommandRegistry& registry,
                                      std::shared_ptr<const EffectLibrary> library = nullptr);

}  // namespace sortie::env

extern template struct sortie::world::PayloadCodec<sortie::env::StartEffectCommand>;
