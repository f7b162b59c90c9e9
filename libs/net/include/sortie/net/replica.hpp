#pragma once
// A replica of the authority's world, built from the authoritative message stream and nothing
// else: NET_WELCOME, the setup messages (setup.hpp), then one message sequence per tick closed by
// GMSG_END_MESSAGE_SEQ. The server's own world is a Replica fed with the sequences it sends
// (run_tick), a client's is fed with the sequences it receives (feed), `sortie replay` feeds it a
// recorded log: one code path, one state hash.
//
// The mirror path of seed 001 (GMSG_CREATE_MIRROR): validate the player and the ObjectId ->
// resolve the prototype -> create (CreateMirrorObject for a remotely created id) -> apply the
// initial state -> add to game; later the tick sequences change it. A second create of an
// existing object never makes a second instance: one with the same prototype is ignored (and
// counted; its state may be older than what the ticks made of the object), one with another
// prototype is an error.
//
// Every replica's world has the authority's player as its local player (WorldConfig), so the
// state hashes of all replicas are comparable; a client's own player number is session state
// (client.hpp), not world state.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/nav/terrain_world.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/net/trace.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

struct ReplicaPlayer {
  PlayerNumber number = 0;
  std::string name;
  core::Bytes data;
  bool host = false;
  std::uint64_t joined_tick = 0;
};

struct ResourceTransfer {
  ResourceKind kind = ResourceKind::blob;
  std::string name;
  std::uint32_t total = 0;
  std::uint64_t content_hash = 0;
  core::Bytes bytes;
  [[nodiscard]] bool complete() const { return bytes.size() == total; }
};

class Replica {
 public:
  // Errors: net.session.player_zero (the authority is player 0: no queue with an active
  // network and player 0), net.welcome.version, net.welcome.step (step_us 0).
  static core::Result<std::unique_ptr<Replica>> create(const Welcome& welcome, Tracer* tracer = nullptr);

  // One message of the stream. Errors: net.replica.unexpected (a message this phase does not
  // take), net.sequence.tick (a sequence message of another tick than the open one),
  // net.sequence.count, net.replica.desync (END's hash differs), net.mirror.*, net.resource.*,
  // net.replica.setup_hash, and the world's command diagnostics.
  core::Status feed(const Message& message);
  // The authority's step: runs the open tick with `sequence` (in-sequence messages of that tick)
  // and returns the state hash after it.
  core::Result<std::uint64_t> run_tick(std::span<const Message> sequence);

  [[nodiscard]] bool setup_complete() const { return setup_done_; }
  [[nodiscard]] std::uint64_t ticks() const { return world_->clock().tick; }
  [[nodiscard]] world::World& world() { return *world_; }
  [[nodiscard]] const world::World& world() const { return *world_; }
  [[nodiscard]] const Welcome& welcome() const { return welcome_; }
  [[nodiscard]] const std::map<PlayerNumber, ReplicaPlayer>& players() const { return players_; }
  [[nodiscard]] const std::map<std::uint32_t, ResourceTransfer>& resources() const { return resources_; }
  [[nodiscard]] const std::vector<std::string>& prototypes() const { return prototypes_; }
  [[nodiscard]] const std::optional<nav::TriangleSoup>& terrain() const { return terrain_; }
  [[nodiscard]] const std::optional<SessionMovement>& movement() const { return movement_; }
  // What units move over (session_environment of the setup's resources); null before the setup
  // is complete.
  [[nodiscard]] const move::MoveEnvironmentPtr& movement_environment() const { return movement_slot_->env; }
  [[nodiscard]] const std::string& mission_path() const { return mission_path_; }
  [[nodiscard]] std::size_t mirrors_created() const { return mirrors_created_; }
  [[nodiscard]] std::size_t duplicates_ignored() const { return duplicates_; }
  [[nodiscard]] std::size_t pending_sequence() const { return pending_.size(); }
  // Hash of the state after the last tick (before the first tick: after the setup).
  [[nodiscard]] std::uint64_t state_hash() const;
  // Player data changed outside the tick sequences (GMSG_SET_PLAYER_DATA).
  void set_player_data(PlayerNumber player, core::Bytes data);

  // The world command an in-sequence message stands for at `tick` (none for
  // CREATE_REMOTE_PLAYER). Errors: net.replica.unexpected for a message outside sequences.
  static core::Result<std::optional<world::Command>> command_of(const Message& message);
  // The tick an in-sequence message names.
  static std::optional<std::uint64_t> tick_of(const Message& message);

 private:
  Replica(const Welcome& welcome, Tracer* tracer);
  core::Status feed_setup(const Message& message);
  core::Status append_resource(const AppendResource& chunk);
  core::Status create_mirror(const CreateMirror& mirror);
  core::Status finish_setup();
  core::Status apply_player_op(const Message& message);

  Welcome welcome_;
  Tracer* tracer_;
  std::unique_ptr<world::World> world_;
  std::uint32_t setup_seen_ = 0;
  bool setup_done_ = false;
  std::string mission_path_;
  std::map<std::uint32_t, ResourceTransfer> resources_;
  std::vector<std::string> prototypes_;
  std::optional<nav::TriangleSoup> terrain_;
  std::optional<SessionMovement> movement_;
  std::shared_ptr<move::MoveEnvironmentSlot> movement_slot_ = std::make_shared<move::MoveEnvironmentSlot>();
  std::map<PlayerNumber, ReplicaPlayer> players_;
  std::vector<Message> pending_;
  std::size_t mirrors_created_ = 0;
  std::size_t duplicates_ = 0;
  std::uint64_t setup_hash_ = 0;
};

// Whether a locally loaded copy of the session's mission is the one the server serves: the
// same ground as the setup's terrain (when the setup carried one) and every prototype key the
// session's mirrors may name among `local_prototypes`. A client that draws the session from its
// own game data (sortie-viewer join) checks this before drawing anything. Errors:
// net.join.mission_mismatch (naming the mission and what differs).
core::Status check_local_mission(const Replica& replica, const nav::TriangleSoup& local_ground,
                                 const std::vector<std::string>& local_prototypes);

}  // namespace sortie::net
