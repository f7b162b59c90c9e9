#include "sortie/net/sync_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sortie/net/wire.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;
using world::ObjectId;

std::int32_t quantize_value(float value, double scale) {
  if (std::isnan(value)) return 0;
  const double v = static_cast<double>(value) * scale;  // scales are powers of two: exact
  const double r = v < 0.0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5);
  if (r >= static_cast<double>(std::numeric_limits<std::int32_t>::max()))
    return std::numeric_limits<std::int32_t>::max();
  if (r <= static_cast<double>(std::numeric_limits<std::int32_t>::min()))
    return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(r);
}

QuantizedState quantize(const world::WorldObject& object) {
  QuantizedState q;
  const core::Transform& t = object.transform;
  q.field[0] = quantize_value(t.position.x, kPositionScale);
  q.field[1] = quantize_value(t.position.y, kPositionScale);
  q.field[2] = quantize_value(t.position.z, kPositionScale);
  q.field[3] = quantize_value(t.orientation.x, kOrientationScale);
  q.field[4] = quantize_value(t.orientation.y, kOrientationScale);
  q.field[5] = quantize_value(t.orientation.z, kOrientationScale);
  q.owner = object.ownership().owner;
  q.flags = static_cast<std::uint8_t>((object.active ? 1 : 0) | (object.visible ? 2 : 0));
  return q;
}

SyncView quantize_world(const world::World& world) {
  SyncView view;
  for (const world::Handle& h : world.queue()) {
    const world::WorldObject* o = world.find(h);
    if (o == nullptr || o->pending_delete()) continue;
    view.emplace(o->id(), quantize(*o));
  }
  return view;
}

namespace {

const QuantizedState kZero{};

// The entry that turns `base` into `target` (nullopt target: a removal).
SyncEntry make_entry(ObjectId id, std::uint64_t age, const QuantizedState& base,
                     const std::optional<QuantizedState>& target) {
  SyncEntry e;
  e.id = id;
  if (!target) {
    e.mask = SyncEntry::kRemoved;
    return e;
  }
  e.age = age;
  for (std::size_t f = 0; f < SyncEntry::kFields; ++f) {
    const std::int64_t d = std::int64_t{target->field[f]} - std::int64_t{base.field[f]};
    if (d != 0) {
      e.mask = static_cast<std::uint16_t>(e.mask | (1u << f));
      e.delta[f] = d;
    }
  }
  if (target->owner != base.owner) {
    e.mask |= SyncEntry::kOwner;
    e.owner = target->owner;
  }
  if (target->flags != base.flags) {
    e.mask |= SyncEntry::kFlags;
    e.flags = target->flags;
  }
  if (e.mask == 0) {
    // An absolute entry of the zero state still has to say something: its flags (0).
    e.mask = SyncEntry::kFlags;
    e.flags = target->flags;
  }
  return e;
}

// Bytes of an entry; `step` is the id step (estimated by the caller).
std::size_t entry_bytes(const SyncEntry& e, std::uint64_t step) {
  std::size_t n = wire::varint_size(step) + wire::varint_size(e.age) + wire::varint_size(e.mask);
  for (std::size_t f = 0; f < SyncEntry::kFields; ++f) {
    if ((e.mask & (1u << f)) != 0) n += wire::varint_size(wire::zigzag(e.delta[f]));
  }
  if ((e.mask & SyncEntry::kOwner) != 0) n += wire::varint_size(e.owner);
  if ((e.mask & SyncEntry::kFlags) != 0) n += 1;
  return n;
}

// How far apart two states are, for the priority: L1 over the fields, and a large step for a
// change of presence, owner or flags.
std::uint64_t distance(const std::optional<QuantizedState>& a, const std::optional<QuantizedState>& b) {
  constexpr std::uint64_t kLarge = 1u << 20;
  if (!a || !b) return (a || b) ? kLarge : 0;
  std::uint64_t d = 0;
  for (std::size_t f = 0; f < SyncEntry::kFields; ++f) {
    const std::int64_t x = std::int64_t{a->field[f]} - std::int64_t{b->field[f]};
    d += static_cast<std::uint64_t>(x < 0 ? -x : x);
  }
  if (a->owner != b->owner || a->flags != b->flags) d += kLarge;
  return d;
}

}  // namespace

SyncState SyncSender::build(std::uint64_t tick, const SyncView& now) {
  struct Candidate {
    ObjectId id;
    std::uint64_t priority;
    SyncEntry entry;
  };
  std::vector<Candidate> candidates;
  std::vector<ObjectId> ids;
  ids.reserve(now.size() + acked_.size());
  for (const auto& [id, q] : now) ids.push_back(id);
  for (const auto& [id, a] : acked_) ids.push_back(id);
  for (const auto& [id, q] : latest_) ids.push_back(id);
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());

  std::map<ObjectId, std::uint64_t> priority;
  for (const ObjectId& id : ids) {
    const auto n = now.find(id);
    const std::optional<QuantizedState> target = n == now.end() ? std::nullopt : std::optional(n->second);
    const auto a = acked_.find(id);
    const std::optional<QuantizedState> acked = a == acked_.end() ? std::nullopt : std::optional(a->second.state);
    if (target == acked) continue;  // the client has it
    const auto l = latest_.find(id);
    const std::optional<QuantizedState> latest = l == latest_.end() ? acked : std::optional(l->second);
    const auto p = priority_.find(id);
    const std::uint64_t accumulated = (p == priority_.end() ? 0 : p->second) + distance(latest, target) + 1;
    priority[id] = accumulated;
    std::uint64_t age = 0;
    const QuantizedState* base = &kZero;
    if (acked && target && tick - a->second.tick <= options_.max_age) {
      age = tick - a->second.tick;
      base = &a->second.state;
    }
    candidates.push_back(Candidate{id, accumulated, make_entry(id, age, *base, target)});
  }
  priority_ = std::move(priority);

  std::sort(candidates.begin(), candidates.end(), [](const Candidate& x, const Candidate& y) {
    return x.priority != y.priority ? x.priority > y.priority : x.id < y.id;
  });
  SyncState message;
  message.tick = tick;
  std::size_t used = 0;
  constexpr std::size_t kMaxEntryBytes = kMaxSyncPayloadBytes - 10;  // tick + count
  for (const Candidate& c : candidates) {
    // The first entry carries its whole id; later ones a step, estimated at two bytes.
    const std::size_t bytes = entry_bytes(c.entry, message.entries.empty() ? c.id.raw() : 0x3fff);
    if (used + bytes > options_.budget_bytes || used + bytes > kMaxEntryBytes) continue;
    used += bytes;
    message.entries.push_back(c.entry);
  }
  std::sort(message.entries.begin(), message.entries.end(),
            [](const SyncEntry& x, const SyncEntry& y) { return x.id < y.id; });

  Sent sent;
  sent.reserve(message.entries.size());
  for (const SyncEntry& e : message.entries) {
    const auto n = now.find(e.id);
    if (n == now.end()) {
      latest_.erase(e.id);
      sent.emplace_back(e.id, std::nullopt);
    } else {
      latest_[e.id] = n->second;
      sent.emplace_back(e.id, n->second);
    }
    priority_.erase(e.id);
  }
  if (!sent.empty()) in_flight_[tick] = std::move(sent);
  while (in_flight_.size() > options_.history) in_flight_.erase(in_flight_.begin());
  return message;
}

void SyncSender::acknowledge(std::uint64_t tick) {
  auto it = in_flight_.find(tick);
  if (it == in_flight_.end()) return;
  for (const auto& [id, state] : it->second) {
    auto a = acked_.find(id);
    if (a != acked_.end() && a->second.tick >= tick) continue;
    if (state) {
      acked_[id] = Acked{tick, *state};
    } else {
      acked_.erase(id);
    }
  }
  in_flight_.erase(in_flight_.begin(), std::next(it));  // older ones can no longer become baselines
}

core::Result<SyncReceiver::Applied> SyncReceiver::apply(const SyncState& message) {
  if (message.tick <= last_) {
    return fail(Diagnostic::error("net.sync.stale", "sync state is not newer than the last one applied")
                    .expect(fmt::format("> {}", last_), std::to_string(message.tick)));
  }
  Applied applied;
  applied.reserve(message.entries.size());
  for (const SyncEntry& e : message.entries) {
    if (e.mask == SyncEntry::kRemoved) {
      if (history_.find(e.id) == history_.end()) {
        return fail(Diagnostic::error("net.sync.removed_unknown", "sync state removes an object it never sent")
                        .in(e.id.to_string()));
      }
      applied.emplace_back(e.id, std::nullopt);
      continue;
    }
    QuantizedState base;
    if (e.age != 0) {
      const std::uint64_t at = message.tick - e.age;
      auto h = history_.find(e.id);
      const QuantizedState* found = nullptr;
      if (h != history_.end()) {
        for (const auto& [t, q] : h->second) {
          if (t == at) found = &q;
        }
      }
      if (found == nullptr) {
        return fail(
            Diagnostic::error("net.sync.baseline_missing", "sync delta refers to a state this peer does not hold")
                .in(e.id.to_string())
                .expect("a state of tick " + std::to_string(at), "none"));
      }
      base = *found;
    }
    QuantizedState q = base;
    for (std::size_t f = 0; f < SyncEntry::kFields; ++f) {
      if ((e.mask & (1u << f)) == 0) continue;
      const std::int64_t v = std::int64_t{base.field[f]} + e.delta[f];
      if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max()) {
        return fail(Diagnostic::error("net.sync.range", "sync delta leaves the i32 range").in(e.id.to_string()));
      }
      q.field[f] = static_cast<std::int32_t>(v);
    }
    if ((e.mask & SyncEntry::kOwner) != 0) q.owner = e.owner;
    if ((e.mask & SyncEntry::kFlags) != 0) q.flags = e.flags;
    applied.emplace_back(e.id, q);
  }
  // Commit: every entry resolved.
  for (const auto& [id, q] : applied) {
    if (!q) {
      history_.erase(id);
      view_.erase(id);
      continue;
    }
    auto& ring = history_[id];
    ring.emplace_back(message.tick, *q);
    while (ring.size() > kMaxAge) ring.pop_front();
    view_[id] = *q;
  }
  last_ = message.tick;
  return applied;
}

}  // namespace sortie::net
