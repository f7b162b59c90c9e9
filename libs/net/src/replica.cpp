#include "sortie/net/replica.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "sortie/core/hash.hpp"
#include "sortie/net/net_commands.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/class_registry.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

Diagnostic unexpected(const Message& m, std::string_view phase) {
  return Diagnostic::error("net.replica.unexpected", fmt::format("message not taken {}", phase))
      .in(std::string(message_name(id_of(m))));
}

}  // namespace

Replica::Replica(const Welcome& welcome, Tracer* tracer) : welcome_(welcome), tracer_(tracer) {
  world::WorldConfig config;
  config.local_player = welcome.authority;
  config.step_us = welcome.step_us;
  config.seed = welcome.seed;
  config.keep_hash_history = false;
  config.commands = session_command_registry(movement_slot_);
  world_ = std::make_unique<world::World>(config);
  // The classes an authority may mirror: every area a session's world is made of.
  if (!register_session_classes(world_->classes())) std::abort();  // fixed rows: a failure is a programming error
}

core::Result<std::unique_ptr<Replica>> Replica::create(const Welcome& welcome, Tracer* tracer) {
  if (welcome.authority == kNoPlayer) {
    return fail(Diagnostic::error("net.session.player_zero",
                                  "no world queue with an active network and player 0: the authority has number 0")
                    .expect("authority player 1..65535", "0"));
  }
  if (welcome.version != kProtocolVersion) {
    return fail(Diagnostic::error("net.welcome.version", "the server speaks another protocol version")
                    .expect(std::to_string(kProtocolVersion), std::to_string(welcome.version)));
  }
  if (welcome.step_us == 0) {
    return fail(Diagnostic::error("net.welcome.step", "calculation step must be > 0").expect("> 0", "0"));
  }
  std::unique_ptr<Replica> r(new Replica(welcome, tracer));
  if (welcome.setup_count == 0) SORTIE_CHECK(r->finish_setup());
  return r;
}

std::uint64_t Replica::state_hash() const {
  return world_->clock().tick == 0 ? setup_hash_ : world_->last_hash();
}

void Replica::set_player_data(PlayerNumber player, core::Bytes data) {
  auto it = players_.find(player);
  if (it != players_.end()) it->second.data = std::move(data);
}

// ---------------------------------------------------------------- setup

core::Status Replica::feed(const Message& message) {
  if (const auto* mirror = std::get_if<CreateMirror>(&message); mirror != nullptr && setup_done_) {
    // A late or repeated create: never a second instance.
    if (world_->lookup(mirror->id)) return create_mirror(*mirror);
    return fail(unexpected(message, "after the setup (a new object arrives as a command)"));
  }
  if (!setup_done_) return feed_setup(message);
  const MessageSpec& spec = spec_of(id_of(message));
  if (const auto* end = std::get_if<EndMessageSeq>(&message)) {
    const std::uint64_t open = world_->clock().tick;
    if (end->tick != open) {
      return fail(Diagnostic::error("net.sequence.tick", "end marker of another tick than the open one")
                      .in("GMSG_END_MESSAGE_SEQ")
                      .expect(std::to_string(open), std::to_string(end->tick)));
    }
    if (end->count != pending_.size()) {
      return fail(Diagnostic::error("net.sequence.count", "the sequence holds another number of messages")
                      .in("GMSG_END_MESSAGE_SEQ")
                      .expect(std::to_string(end->count), std::to_string(pending_.size())));
    }
    std::vector<Message> sequence = std::move(pending_);
    pending_.clear();
    SORTIE_TRY(const std::uint64_t hash, run_tick(sequence));
    if (hash != end->state_hash) {
      if (tracer_ != nullptr) {
        tracer_->netwatch("desync", fmt::format("tick={} expected={} found={}", end->tick,
                                                core::hash_hex(end->state_hash), core::hash_hex(hash)));
      }
      return fail(Diagnostic::error("net.replica.desync", "state hash after the tick differs from the authority's")
                      .in(fmt::format("ticks[{}]", end->tick))
                      .expect(core::hash_hex(end->state_hash), core::hash_hex(hash)));
    }
    return {};
  }
  if (!spec.in_sequence) return fail(unexpected(message, "in the tick sequences"));
  const std::uint64_t tick = *tick_of(message);
  if (tick != world_->clock().tick) {
    return fail(Diagnostic::error("net.sequence.tick", "sequence message of another tick than the open one")
                    .in(std::string(spec.name))
                    .expect(std::to_string(world_->clock().tick), std::to_string(tick)));
  }
  if (pending_.size() >= kMaxMessagesPerTick) {
    return fail(Diagnostic::error("net.sequence.count", "more messages in one tick than a replica holds")
                    .in(std::string(spec.name))
                    .expect(fmt::format("<= {}", kMaxMessagesPerTick), "more"));
  }
  pending_.push_back(message);
  return {};
}

core::Status Replica::feed_setup(const Message& message) {
  ++setup_seen_;
  if (const auto* path = std::get_if<MissionDataPath>(&message)) {
    mission_path_ = path->path;
  } else if (const auto* chunk = std::get_if<AppendResource>(&message)) {
    SORTIE_CHECK(append_resource(*chunk));
  } else if (const auto* removed = std::get_if<RemoveResource>(&message)) {
    resources_.erase(removed->resource);
    return fail(Diagnostic::error("net.resource.removed", "the server dropped a resource of the setup")
                    .in(fmt::format("resources[{}]", removed->resource))
                    .expect("the whole setup", std::string(to_string(removed->reason))));
  } else if (const auto* player = std::get_if<CreateRemotePlayer>(&message)) {
    if (player->tick != 0) {
      return fail(Diagnostic::error("net.sequence.tick", "a setup player must have tick 0")
                      .in("GMSG_CREATE_REMOTE_PLAYER")
                      .expect("0", std::to_string(player->tick)));
    }
    SORTIE_CHECK(apply_player_op(message));
  } else if (const auto* mirror = std::get_if<CreateMirror>(&message)) {
    SORTIE_CHECK(create_mirror(*mirror));
  } else {
    return fail(unexpected(message, "during the setup"));
  }
  if (setup_seen_ == welcome_.setup_count) SORTIE_CHECK(finish_setup());
  return {};
}

core::Status Replica::append_resource(const AppendResource& chunk) {
  const std::string where = fmt::format("resources[{}]", chunk.resource);
  auto it = resources_.find(chunk.resource);
  if (it == resources_.end()) {
    if (chunk.offset != 0) {
      return fail(Diagnostic::error("net.resource.order", "first chunk of a resource must start at offset 0")
                      .in(where)
                      .expect("0", std::to_string(chunk.offset)));
    }
    if (resources_.size() >= kMaxResources) {
      return fail(Diagnostic::error("net.resource.limit", "more resources than a replica accepts")
                      .in(where)
                      .expect(fmt::format("<= {} resources", kMaxResources), fmt::format("{}", resources_.size() + 1)));
    }
    ResourceTransfer t;
    t.kind = chunk.kind;
    t.name = chunk.name;
    t.total = chunk.total;
    t.content_hash = chunk.content_hash;
    t.bytes.reserve(std::min<std::uint32_t>(chunk.total, 1u << 20));
    it = resources_.emplace(chunk.resource, std::move(t)).first;
    if (tracer_ != nullptr) {
      tracer_->resnet("resource_begin", fmt::format("id={} kind={} name={} bytes={}", chunk.resource,
                                                    to_string(chunk.kind), chunk.name, chunk.total));
    }
  }
  ResourceTransfer& t = it->second;
  if (t.complete() && !(t.total == 0 && chunk.offset == 0 && t.bytes.empty() && chunk.chunk.empty())) {
    return fail(Diagnostic::error("net.resource.duplicate", "chunk of a resource that is already complete").in(where));
  }
  if (chunk.kind != t.kind || chunk.name != t.name || chunk.total != t.total || chunk.content_hash != t.content_hash ||
      chunk.offset != t.bytes.size()) {
    return fail(Diagnostic::error("net.resource.order", "chunk does not continue the resource's transfer")
                    .in(where)
                    .expect(fmt::format("offset {}", t.bytes.size()), fmt::format("offset {}", chunk.offset)));
  }
  t.bytes.insert(t.bytes.end(), chunk.chunk.begin(), chunk.chunk.end());
  if (!t.complete()) return {};
  const std::uint64_t h = core::hash64(t.bytes);
  if (h != t.content_hash) {
    return fail(Diagnostic::error("net.resource.hash", "resource content does not match its hash")
                    .in(where)
                    .expect(core::hash_hex(t.content_hash), core::hash_hex(h)));
  }
  if (tracer_ != nullptr) tracer_->resnet("resource_complete", fmt::format("id={} bytes={}", chunk.resource, t.total));
  if (t.kind == ResourceKind::prototypes) {
    SORTIE_TRY(prototypes_, decode_prototypes(t.bytes));
  } else if (t.kind == ResourceKind::terrain) {
    SORTIE_TRY(auto soup, decode_terrain(t.bytes));
    terrain_ = std::move(soup);
  } else if (t.kind == ResourceKind::movement) {
    SORTIE_TRY(auto movement, decode_movement(t.bytes));
    movement_ = std::move(movement);
  }
  return {};
}

core::Status Replica::create_mirror(const CreateMirror& m) {
  const std::string where = m.id.to_string();
  // 1. validate the player and the ObjectId
  if (players_.find(m.owner) == players_.end()) {
    return fail(Diagnostic::error("net.mirror.player_unknown", "mirror owned by a player this session does not know")
                    .in(where)
                    .expect("a player of the session", std::to_string(m.owner)));
  }
  if (players_.find(m.id.owner) == players_.end()) {
    return fail(Diagnostic::error("net.mirror.id_owner_unknown", "object id names a creator this session does not know")
                    .in(where)
                    .expect("a player of the session", std::to_string(m.id.owner)));
  }
  if (world_->classes().find(m.id.class_id) == nullptr) {
    return fail(Diagnostic::error("net.mirror.class_unknown", "object id names a class no area of a session registers")
                    .in(where)
                    .expect("a class of session_class_rows()", std::to_string(m.id.class_id)));
  }
  if (auto existing = world_->lookup(m.id)) {
    // The object exists: a repeated create (its state may be older than what the tick
    // sequences made of it) is ignored; another prototype under the same id is a conflict.
    const world::WorldObject* o = world_->find(*existing);
    if (o == nullptr || o->prototype_key != m.prototype) {
      return fail(Diagnostic::error("net.mirror.conflict", "a second create of an existing id names another prototype")
                      .in(where)
                      .expect(o == nullptr ? std::string("-") : o->prototype_key, m.prototype));
    }
    ++duplicates_;
    if (tracer_ != nullptr) tracer_->netwatch("mirror_duplicate_ignored", fmt::format("id={}", where));
    return {};
  }
  // 2. resolve the prototype
  if (!std::binary_search(prototypes_.begin(), prototypes_.end(), m.prototype)) {
    return fail(
        Diagnostic::error("net.mirror.prototype_unknown", "mirror names a prototype outside the session's table")
            .in(where)
            .expect(prototypes_.empty() ? "a prototypes resource first" : "a key of the prototypes resource",
                    m.prototype));
  }
  // 3. create (CreateMirrorObject for an id another player created)
  core::Result<world::Handle> h = m.id.owner == world_->local_player()
                                      ? world_->create_object(m.id, m.prototype, m.transform)
                                      : world_->create_mirror_object(m.id, m.prototype, m.transform);
  if (!h) return fail(std::move(h.error()).within(where));
  // 4. apply the initial state
  world::WorldObject* o = world_->find(*h);
  if (m.owner != m.id.owner) SORTIE_CHECK(world_->change_owner(*h, m.owner));
  o->active = (m.flags & CreateMirror::kActive) != 0;
  o->visible = (m.flags & CreateMirror::kVisible) != 0;
  o->properties = m.properties;
  o->raw_properties = m.raw_properties;
  // 5. add to game
  SORTIE_CHECK(world_->add_to_game(*h));
  ++mirrors_created_;
  if (tracer_ != nullptr) {
    tracer_->netwatch("mirror_create", fmt::format("id={} owner={} mirror={} prototype={}", where, m.owner,
                                                   o->is_mirror() ? 1 : 0, m.prototype));
  }
  return {};
}

core::Status Replica::finish_setup() {
  for (const auto& [id, t] : resources_) {
    if (!t.complete()) {
      return fail(Diagnostic::error("net.resource.incomplete", "the setup ended before a resource was complete")
                      .in(fmt::format("resources[{}]", id))
                      .expect(fmt::format("{} bytes", t.total), fmt::format("{} bytes", t.bytes.size())));
    }
  }
  if (terrain_) {
    SORTIE_TRY(auto ground, make_height_field(*terrain_));
    world_->set_height_field(std::move(ground));
  }
  if (terrain_ || movement_) {
    SORTIE_TRY(movement_slot_->env, session_environment(terrain_, movement_));
  }
  setup_hash_ = world_->compute_state_hash();
  if (welcome_.setup_hash != 0 && setup_hash_ != welcome_.setup_hash) {
    return fail(
        Diagnostic::error("net.replica.setup_hash", "the world built from the setup differs from the authority's")
            .expect(core::hash_hex(welcome_.setup_hash), core::hash_hex(setup_hash_)));
  }
  setup_done_ = true;
  if (tracer_ != nullptr) {
    tracer_->netwatch("setup_complete", fmt::format("objects={} players={} hash={}", world_->live_count(),
                                                    players_.size(), core::hash_hex(setup_hash_)));
  }
  return {};
}

// ---------------------------------------------------------------- sequences

std::optional<std::uint64_t> Replica::tick_of(const Message& message) {
  return std::visit(
      [](const auto& m) -> std::optional<std::uint64_t> {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, CreateRemotePlayer> || std::is_same_v<T, ChangeObjectOwner> ||
                      std::is_same_v<T, PauseRemotePlayer> || std::is_same_v<T, KillPlayer> ||
                      std::is_same_v<T, SetTime> || std::is_same_v<T, TickCommand> ||
                      std::is_same_v<T, EndMessageSeq>) {
          return m.tick;
        } else {
          return std::nullopt;
        }
      },
      message);
}

core::Result<std::optional<world::Command>> Replica::command_of(const Message& message) {
  const std::optional<std::uint64_t> tick = tick_of(message);
  if (!tick || std::holds_alternative<EndMessageSeq>(message)) {
    return fail(unexpected(message, "as a sequence command"));
  }
  if (const auto* m = std::get_if<ChangeObjectOwner>(&message)) {
    return std::optional(world::make_command(*tick, ChangeOwnerCommand{m->object, m->owner}));
  }
  if (const auto* m = std::get_if<PauseRemotePlayer>(&message)) {
    return std::optional(world::make_command(*tick, world::PauseCommand{m->paused}));
  }
  if (const auto* m = std::get_if<SetTime>(&message)) {
    return std::optional(world::make_command(*tick, world::SetSpeedCommand{m->scale_permille}));
  }
  if (const auto* m = std::get_if<KillPlayer>(&message)) {
    return std::optional(world::make_command(*tick, ReleasePlayerCommand{m->player, m->policy}));
  }
  if (const auto* m = std::get_if<TickCommand>(&message)) {
    return std::optional(world::Command{*tick, m->kind, m->payload});
  }
  return std::optional<world::Command>();  // CREATE_REMOTE_PLAYER: the player table only
}

core::Status Replica::apply_player_op(const Message& message) {
  if (const auto* p = std::get_if<CreateRemotePlayer>(&message)) {
    if (players_.find(p->player) != players_.end()) {
      return fail(Diagnostic::error("net.player.duplicate", "player number already in the session")
                      .in("GMSG_CREATE_REMOTE_PLAYER")
                      .expect("a new player number", std::to_string(p->player)));
    }
    players_[p->player] =
        ReplicaPlayer{p->player, p->name, p->data, (p->flags & CreateRemotePlayer::kHost) != 0, p->tick};
    if (tracer_ != nullptr) {
      tracer_->netwatch("player_join", fmt::format("player={} name={} host={}", p->player, p->name,
                                                   (p->flags & CreateRemotePlayer::kHost) != 0 ? 1 : 0));
    }
  } else if (const auto* k = std::get_if<KillPlayer>(&message)) {
    if (k->player == welcome_.authority || players_.erase(k->player) == 0) {
      return fail(Diagnostic::error("net.player.unknown", "KILL_PLAYER names no removable player")
                      .in("GMSG_KILL_PLAYER")
                      .expect("a joined player other than the authority", std::to_string(k->player)));
    }
    if (tracer_ != nullptr) {
      tracer_->netwatch("player_leave", fmt::format("player={} reason={} policy={}", k->player, to_string(k->reason),
                                                    to_string(k->policy)));
    }
  }
  return {};
}

core::Result<std::uint64_t> Replica::run_tick(std::span<const Message> sequence) {
  if (!setup_done_) return fail(Diagnostic::error("net.replica.unexpected", "a tick before the setup is complete"));
  const std::uint64_t open = world_->clock().tick;
  if (tracer_ != nullptr) tracer_->set_tick(open);
  for (std::size_t i = 0; i < sequence.size(); ++i) {
    const Message& m = sequence[i];
    const auto tick = tick_of(m);
    if (!spec_of(id_of(m)).in_sequence || !tick || *tick != open) {
      return fail(Diagnostic::error("net.sequence.tick", "sequence message of another tick than the open one")
                      .in(fmt::format("sequence[{}] {}", i, message_name(id_of(m))))
                      .expect(std::to_string(open), tick ? std::to_string(*tick) : "none"));
    }
    SORTIE_CHECK(apply_player_op(m));
    SORTIE_TRY(const auto command, command_of(m));
    if (!command) continue;
    auto st = world_->submit(*command);
    if (!st) return fail(std::move(st).error().within(fmt::format("sequence[{}]", i)));
    if (tracer_ != nullptr) {
      if (const auto* c = std::get_if<ChangeObjectOwner>(&m)) {
        tracer_->netwatch("owner_change", fmt::format("id={} owner={}", c->object.to_string(), c->owner));
      }
    }
  }
  SORTIE_CHECK(world_->tick());
  if (tracer_ != nullptr) tracer_->set_tick(world_->clock().tick);
  return world_->last_hash();
}

core::Status check_local_mission(const Replica& replica, const nav::TriangleSoup& local_ground,
                                 const std::vector<std::string>& local_prototypes) {
  const auto mismatch = [&](std::string what, std::string expected, std::string found) {
    return core::fail(
        core::Diagnostic::error("net.join.mission_mismatch",
                                fmt::format("the local copy of the session's mission '{}' is not the one the server "
                                            "serves ({}): give the game directory (or --sample) the server uses",
                                            replica.mission_path(), what))
            .expect(std::move(expected), std::move(found)));
  };
  if (const auto& ground = replica.terrain(); ground && !(*ground == local_ground))
    return mismatch("its ground differs",
                    fmt::format("{} vertices, {} faces", ground->positions.size(), ground->faces.size()),
                    fmt::format("{} vertices, {} faces", local_ground.positions.size(), local_ground.faces.size()));
  for (const auto& key : replica.prototypes())
    if (std::find(local_prototypes.begin(), local_prototypes.end(), key) == local_prototypes.end())
      return mismatch("a prototype of the session is missing", key, "no such prototype in the local mission");
  return {};
}

}  // namespace sortie::net
