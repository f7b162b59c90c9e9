#include "sortie/net/net_commands.hpp"

#include <vector>

#include "sortie/env/class_ids.hpp"
#include "sortie/env/effect_world.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/net/class_ids.hpp"
#include "sortie/scenario/class_ids.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/payload_fields.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;
using world::CommandOutcome;
using world::World;

namespace {

core::Status invalid(std::string_view kind, std::string what) {
  return fail(Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(kind)));
}

constexpr world::field::Range<PlayerNumber> kPlayer{"world.command.payload.player", "player number must not be 0", 1,
                                                    0xFFFF};
constexpr std::string_view kPolicyNames[] = {"transfer", "remove"};

}  // namespace

// ---------------------------------------------------------------- payload fields

template <class Self, class V>
void ChangeOwnerCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.owner, "owner", kPlayer);
}

template <class Self, class V>
void ReleasePlayerCommand::fields(Self& c, V& v) {
  v(c.player, "player", kPlayer);
  v(c.policy, "policy",
    world::field::Names{"world.command.payload.policy", "unknown owned-object policy", kPolicyNames});
}

template <class Self, class V>
void SpawnForCommand::fields(Self& c, V& v) {
  v(c.owner, "owner", kPlayer);
  v(c.class_id, "class");
  v(c.prototype, "prototype", world::field::Text{255});
  v(c.position.x, "x");
  v(c.position.y, "y");
  v(c.position.z, "z");
}

// ---------------------------------------------------------------- registration

core::Status register_net_commands(world::CommandRegistry& registry) {
  SORTIE_CHECK(registry.register_kind(world::command_kind<ChangeOwnerCommand>(
      nullptr, [](World& w, const ChangeOwnerCommand& c) -> core::Result<CommandOutcome> {
        world::WorldObject* o = w.find_live(c.target);
        if (o == nullptr) return CommandOutcome::skipped;
        SORTIE_CHECK(w.change_owner(o->handle(), c.owner));
        return CommandOutcome::applied;
      })));

  SORTIE_CHECK(registry.register_kind(world::command_kind<ReleasePlayerCommand>(
      [](const World& w, const ReleasePlayerCommand& c) -> core::Status {
        if (c.player == w.local_player()) {
          return invalid(ReleasePlayerCommand::kName, "the authority's own objects are never released");
        }
        return {};
      },
      [](World& w, const ReleasePlayerCommand& c) -> core::Result<CommandOutcome> {
        std::vector<world::Handle> owned;  // collected first: deleting edits the queue
        for (const world::Handle& h : w.queue()) {
          const world::WorldObject* o = w.find(h);
          if (o != nullptr && !o->pending_delete() && o->ownership().owner == c.player) owned.push_back(h);
        }
        for (const world::Handle& h : owned) {
          if (c.policy == OwnedObjectPolicy::transfer) {
            SORTIE_CHECK(w.change_owner(h, w.local_player()));
          } else {
            SORTIE_CHECK(w.request_delete(h));
          }
        }
        return CommandOutcome::applied;
      })));

  return registry.register_kind(world::command_kind<SpawnForCommand>(
      [](const World&, const SpawnForCommand& c) -> core::Status {
        if (!core::is_finite(c.position)) return invalid(SpawnForCommand::kName, "spawn position must be finite");
        if (c.prototype.empty()) return invalid(SpawnForCommand::kName, "prototype key must not be empty");
        return {};
      },
      [](World& w, const SpawnForCommand& c) -> core::Result<CommandOutcome> {
        core::Transform t;
        t.position = c.position;
        SORTIE_CHECK(w.classes().add(kClasses));
        SORTIE_TRY(const world::Handle h, w.add_new_object(c.class_id, c.prototype, t));
        SORTIE_CHECK(w.change_owner(h, c.owner));
        w.post(world::Event{0, world::EventType::spawned, h, {}, 0, 0});
        return CommandOutcome::applied;
      }));
}

std::shared_ptr<const world::CommandRegistry> session_command_registry(
    std::shared_ptr<const move::MoveEnvironmentSlot> movement) {
  world::CommandRegistry r = world::CommandRegistry::standard();
  auto status = register_net_commands(r);
  if (status) status = move::register_move_commands_in(r, std::move(movement));
  if (status) status = scenario::register_scenario_commands(r);  // objectives, outcome, spawns, digest
  if (status) status = env::register_effect_commands(r);         // fx.start (bounds only: no game data here)
  if (!status) std::abort();  // the kinds are fixed and valid: a failure is a programming error
  return std::make_shared<const world::CommandRegistry>(std::move(r));
}

core::Status register_session_classes(world::ClassRegistry& classes) {
  SORTIE_CHECK(classes.add(mission::kClasses));
  SORTIE_CHECK(classes.add(move::kClasses));
  SORTIE_CHECK(classes.add(scenario::kClasses));
  SORTIE_CHECK(classes.add(env::kClasses));
  return classes.add(kClasses);
}

}  // namespace sortie::net

template struct sortie::world::PayloadCodec<sortie::net::ChangeOwnerCommand>;
template struct sortie::world::PayloadCodec<sortie::net::ReleasePlayerCommand>;
template struct sortie::world::PayloadCodec<sortie::net::SpawnForCommand>;
