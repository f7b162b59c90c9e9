#include "sortie/net/net_commands.hpp"

#include <fmt/format.h>

#include <vector>

#include "sortie/move/commands.hpp"
#include "sortie/world/command_json.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;
using core::Json;
using world::CommandOutcome;
using world::World;

namespace {

core::Status invalid(std::string_view kind, std::string what) {
  return fail(Diagnostic::error("world.command.invalid", std::move(what)).in(std::string(kind)));
}

core::Result<PlayerNumber> read_player(core::ByteReader& in, std::string_view kind) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint16_t p, in.u16());
  if (p == 0) {
    return fail(in.error_at(at, "world.command.payload.player", "player number must not be 0")
                    .in(std::string(kind))
                    .expect("1..65535", "0"));
  }
  return p;
}

core::Diagnostic json_range(const std::string& path, std::string_view key, std::string expected, std::string found) {
  return Diagnostic::error("command_log.field_type", "field has the wrong type or range")
      .in(path.empty() ? std::string(key) : path + "." + std::string(key))
      .expect(std::move(expected), std::move(found));
}

}  // namespace

// ---------------------------------------------------------------- net.change_owner

void ChangeOwnerCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.u16(owner);
}
core::Result<ChangeOwnerCommand> ChangeOwnerCommand::read(core::ByteReader& in) {
  ChangeOwnerCommand c;
  SORTIE_TRY(const std::uint64_t raw, in.u64());
  c.target = world::ObjectId::from_raw(raw);
  SORTIE_TRY(c.owner, read_player(in, kName));
  return c;
}
void ChangeOwnerCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  out["owner"] = owner;
}
core::Result<ChangeOwnerCommand> ChangeOwnerCommand::from_json(const Json& in, const std::string& path) {
  ChangeOwnerCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.owner, world::json_get<PlayerNumber>(in, "owner", path));
  if (c.owner == 0) return fail(json_range(path, "owner", "1..65535", "0"));
  return c;
}

// ---------------------------------------------------------------- net.release_player

void ReleasePlayerCommand::write(core::ByteWriter& out) const {
  out.u16(player);
  out.u8(static_cast<std::uint8_t>(policy));
}
core::Result<ReleasePlayerCommand> ReleasePlayerCommand::read(core::ByteReader& in) {
  ReleasePlayerCommand c;
  SORTIE_TRY(c.player, read_player(in, kName));
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t policy, in.u8());
  if (policy > 1) {
    return fail(in.error_at(at, "world.command.payload.policy", "unknown owned-object policy")
                    .expect("0 transfer, 1 remove", std::to_string(policy)));
  }
  c.policy = static_cast<OwnedObjectPolicy>(policy);
  return c;
}
void ReleasePlayerCommand::to_json(Json& out) const {
  out["player"] = player;
  out["policy"] = std::string(to_string(policy));
}
core::Result<ReleasePlayerCommand> ReleasePlayerCommand::from_json(const Json& in, const std::string& path) {
  ReleasePlayerCommand c;
  SORTIE_TRY(c.player, world::json_get<PlayerNumber>(in, "player", path));
  if (c.player == 0) return fail(json_range(path, "player", "1..65535", "0"));
  SORTIE_TRY(const std::string policy, world::json_get<std::string>(in, "policy", path));
  if (policy == "transfer") {
    c.policy = OwnedObjectPolicy::transfer;
  } else if (policy == "remove") {
    c.policy = OwnedObjectPolicy::remove;
  } else {
    return fail(json_range(path, "policy", "transfer|remove", policy));
  }
  return c;
}

// ---------------------------------------------------------------- net.spawn_for

void SpawnForCommand::write(core::ByteWriter& out) const {
  out.u16(owner);
  out.u16(class_id);
  out.lp_string(prototype);
  out.f32(position.x);
  out.f32(position.y);
  out.f32(position.z);
}
core::Result<SpawnForCommand> SpawnForCommand::read(core::ByteReader& in) {
  SpawnForCommand c;
  SORTIE_TRY(c.owner, read_player(in, kName));
  SORTIE_TRY(c.class_id, in.u16());
  SORTIE_TRY(c.prototype, in.lp_string(255));
  SORTIE_TRY(c.position.x, in.f32());
  SORTIE_TRY(c.position.y, in.f32());
  SORTIE_TRY(c.position.z, in.f32());
  return c;
}
void SpawnForCommand::to_json(Json& out) const {
  out["owner"] = owner;
  out["class"] = class_id;
  out["prototype"] = prototype;
  world::json_put_f32(out, "x", position.x);
  world::json_put_f32(out, "y", position.y);
  world::json_put_f32(out, "z", position.z);
}
core::Result<SpawnForCommand> SpawnForCommand::from_json(const Json& in, const std::string& path) {
  SpawnForCommand c;
  SORTIE_TRY(c.owner, world::json_get<PlayerNumber>(in, "owner", path));
  if (c.owner == 0) return fail(json_range(path, "owner", "1..65535", "0"));
  SORTIE_TRY(c.class_id, world::json_get<world::ClassId>(in, "class", path));
  SORTIE_TRY(c.prototype, world::json_get<std::string>(in, "prototype", path));
  if (c.prototype.size() > 255) {
    return fail(json_range(path, "prototype", "<= 255 bytes", std::to_string(c.prototype.size()) + " bytes"));
  }
  SORTIE_TRY(c.position.x, world::json_get_f32(in, "x", path));
  SORTIE_TRY(c.position.y, world::json_get_f32(in, "y", path));
  SORTIE_TRY(c.position.z, world::json_get_f32(in, "z", path));
  return c;
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
  if (!status) std::abort();  // the kinds are fixed and valid: a failure is a programming error
  return std::make_shared<const world::CommandRegistry>(std::move(r));
}

}  // namespace sortie::net
