#pragma once
// GMSG_SYNC_STATE: the mirrors' state as quantised deltas, never full snapshots.
//
// The authority's simulation is exact on every replica (the tick sequences carry its input, see
// session docs); the sync state is the mirrors' visible state in a second, lossy form: what a
// presentation-only peer draws, and what a replica checks its own objects against object by
// object (a mismatch names the object in the NetWatch trace).
//
// Quantisation: positions in 1/32 world unit, orientation in 1/1024 of its raw unit, rounded to
// nearest and saturated to i32; owner and the active/visible flags as they are.
// Deltas: per object, against the state the client acknowledged for that object (the newest
// acknowledged sync message that carried it), at most kMaxAge ticks old, else absolute. The
// sender fills a byte budget per message by priority (the error each object accumulated since it
// was last sent), so the bandwidth is bounded whatever moves.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/world/object.hpp"
#include "sortie/world/world.hpp"

namespace sortie::net {

inline constexpr double kPositionScale = 32.0;       // quanta per world unit
inline constexpr double kOrientationScale = 1024.0;  // quanta per raw orientation unit

struct QuantizedState {
  std::array<std::int32_t, SyncEntry::kFields> field{};  // px py pz ox oy oz
  PlayerNumber owner = 0;
  std::uint8_t flags = 0;  // bit 0 active, bit 1 visible
  friend bool operator==(const QuantizedState&, const QuantizedState&) = default;
};

// Round to nearest (halves away from zero), saturate to i32; NaN -> 0.
std::int32_t quantize_value(float value, double scale);
QuantizedState quantize(const world::WorldObject& object);

// Quantised state per object, ascending id.
using SyncView = std::map<world::ObjectId, QuantizedState>;
// Every registered object that is not pending deletion.
SyncView quantize_world(const world::World& world);

struct SyncOptions {
  std::size_t budget_bytes = 112;  // entry bytes per message (a soft limit; the header is extra)
  std::uint64_t max_age = 32;      // older baselines are not used (the receiver keeps kMaxAge)
  std::size_t history = 64;        // unacknowledged messages remembered
};

// The server's side, one per client.
class SyncSender {
 public:
  explicit SyncSender(SyncOptions options = {}) : options_(options) {}
  // The message for the state `now` after `tick` completed ticks. Empty entries when nothing
  // differs from what the client acknowledged.
  SyncState build(std::uint64_t tick, const SyncView& now);
  // The client applied the message of `tick`.
  void acknowledge(std::uint64_t tick);
  [[nodiscard]] std::size_t acknowledged_objects() const { return acked_.size(); }

 private:
  struct Acked {
    std::uint64_t tick = 0;
    QuantizedState state;
  };
  using Sent = std::vector<std::pair<world::ObjectId, std::optional<QuantizedState>>>;  // nullopt = removal
  SyncOptions options_;
  std::map<world::ObjectId, Acked> acked_;
  std::map<world::ObjectId, QuantizedState> latest_;  // newest state sent (acknowledged or not)
  std::map<world::ObjectId, std::uint64_t> priority_;
  std::map<std::uint64_t, Sent> in_flight_;
};

// The client's side.
class SyncReceiver {
 public:
  static constexpr std::size_t kMaxAge = 32;  // states kept per object (one per message)
  using Applied = std::vector<std::pair<world::ObjectId, std::optional<QuantizedState>>>;
  // Applies one message (all entries or none). Errors: net.sync.stale (not newer than the last
  // applied message), net.sync.baseline_missing, net.sync.removed_unknown, net.sync.range.
  core::Result<Applied> apply(const SyncState& message);
  [[nodiscard]] const SyncView& view() const { return view_; }
  [[nodiscard]] std::uint64_t last_tick() const { return last_; }

 private:
  std::map<world::ObjectId, std::deque<std::pair<std::uint64_t, QuantizedState>>> history_;
  SyncView view_;
  std::uint64_t last_ = 0;
};

}  // namespace sortie::net
