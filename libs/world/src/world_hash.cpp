// Canonical encoding of the simulation state and its hash.
//
// Layout (all little-endian, floats as their IEEE-754 bit patterns):
//   "sortie-world-state-v1\0"
//   clock: tick u64, step_us u32, time_us u64, dt_us u64, scale u32, paused u8
//   local_player u16, next_registration u64, next_event u64,
//   commands_applied u64, commands_skipped u64, sim rng state u64
//   next_index: count u32, then (class u16, next u32) sorted by class
//   slots: count u64, per slot: generation u32, occupied u8, and when occupied:
//     id raw u64, owner u16, mirror u8, registered u8, pending_add u8, pending_delete u8,
//     registration_sequence u64, active u8, visible u8, prototype key (lp string),
//     transform 9 x f32 (position, orientation, scale),
//     properties: count u32, per item key (lp), tag u8 (0 int, 1 double, 2 string), value,
//     controller: present u8, kind (lp), controller's own encoding (length-prefixed u32)
//   free slot FIFO: count u32, slot u32 each
//   queue: count u32, (slot u32, generation u32) each
//   pending events: count u32, (sequence u64, type u32, target, other, a u64, b u64) each
//   deferred deletions, deferred additions: count u32, handles
//   only when some object has components (so worlds without any encode as before):
//     "components\0", count u32 of such objects, per object in slot order: slot u32, then
//     ComponentStore::encode (count u32, per component in name order: name lp, encoding lp)
//   only when some object has raw properties (so worlds without any encode as before; ADR 0020):
//     "raw-properties-v1\0", count u32 of such objects, per object in slot order: slot u32,
//     count u32, per record in file order: name (lp, UTF-8), name bytes (lp, empty when the
//     name decodes them losslessly), words 4 x u32
//   pending commands are input, not state: they are not encoded.
#include <algorithm>
#include <bit>

#include "sortie/core/hash.hpp"
#include "sortie/world/world.hpp"

namespace sortie::world {

namespace {

void put_handle(StateWriter& w, Handle h) {
  w.u32(h.slot);
  w.u32(h.generation);
}

void put_transform(StateWriter& w, const core::Transform& t) {
  for (const core::Vec3* v : {&t.position, &t.orientation, &t.scale}) {
    w.f32(v->x);
    w.f32(v->y);
    w.f32(v->z);
  }
}

void put_properties(StateWriter& w, const Properties& p) {
  w.u32(static_cast<std::uint32_t>(p.size()));
  for (const auto& [key, value] : p.items()) {
    w.str(key);
    w.u8(static_cast<std::uint8_t>(value.index()));
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
      w.u64(static_cast<std::uint64_t>(*i));
    } else if (const auto* d = std::get_if<double>(&value)) {
      w.u64(std::bit_cast<std::uint64_t>(*d));
    } else {
      w.str(std::get<std::string>(value));
    }
  }
}

void put_raw_properties(StateWriter& w, const RawProperties& p) {
  w.u32(static_cast<std::uint32_t>(p.size()));
  for (const RawProperty& r : p.items()) {
    w.str(r.name);
    w.str(r.name_bytes);
    for (const std::uint32_t word : r.words) w.u32(word);
  }
}

}  // namespace

void World::encode_state(StateWriter& w) const {
  w.clear();
  w.raw(std::string_view("sortie-world-state-v1\0", 22));
  w.u64(clock_.tick);
  w.u32(clock_.step_us);
  w.u64(clock_.time_us);
  w.u64(clock_.dt_us);
  w.u32(clock_.scale_permille);
  w.u8(clock_.paused ? 1 : 0);
  w.u16(config_.local_player);
  w.u64(next_registration_);
  w.u64(next_event_);
  w.u64(commands_applied_);
  w.u64(commands_skipped_);
  w.u64(sim_rng_.state_hash());

  std::vector<std::pair<ClassId, std::uint32_t>> indices(next_index_.begin(), next_index_.end());
  std::sort(indices.begin(), indices.end());
  w.u32(static_cast<std::uint32_t>(indices.size()));
  for (const auto& [cls, next] : indices) {
    w.u16(cls);
    w.u32(next);
  }

  w.u64(slots_.size());
  std::uint32_t with_components = 0;
  std::uint32_t with_raw_properties = 0;
  for (const Slot& slot : slots_) {
    w.u32(slot.generation);
    w.u8(slot.object ? 1 : 0);
    if (!slot.object) continue;
    const WorldObject& o = *slot.object;
    w.u64(o.id_.raw());
    w.u16(o.ownership_.owner);
    w.u8(o.ownership_.mirror ? 1 : 0);
    w.u8(o.registered_ ? 1 : 0);
    w.u8(o.pending_add_ ? 1 : 0);
    w.u8(o.pending_delete_ ? 1 : 0);
    w.u64(o.registration_sequence_);
    w.u8(o.active ? 1 : 0);
    w.u8(o.visible ? 1 : 0);
    w.str(o.prototype_key);
    put_transform(w, o.transform);
    put_properties(w, o.properties);
    if (!o.components.empty()) ++with_components;
    if (!o.raw_properties.empty()) ++with_raw_properties;
    w.u8(o.controller ? 1 : 0);
    if (o.controller) {
      w.str(o.controller->kind());
      const std::size_t at = w.placeholder_u32();
      o.controller->encode(w);
      w.patch_u32(at, static_cast<std::uint32_t>(w.size() - at - 4));
    }
  }

  w.u32(static_cast<std::uint32_t>(free_slots_.size()));
  for (std::uint32_t s : free_slots_) w.u32(s);
  w.u32(static_cast<std::uint32_t>(queue_.size()));
  for (const Handle& h : queue_) put_handle(w, h);
  w.u32(static_cast<std::uint32_t>(events_.size()));
  for (const Event& e : events_) {
    w.u64(e.sequence);
    w.u32(static_cast<std::uint32_t>(e.type));
    put_handle(w, e.target);
    put_handle(w, e.other);
    w.u64(static_cast<std::uint64_t>(e.a));
    w.u64(static_cast<std::uint64_t>(e.b));
  }
  w.u32(static_cast<std::uint32_t>(deferred_delete_.size()));
  for (const Handle& h : deferred_delete_) put_handle(w, h);
  w.u32(static_cast<std::uint32_t>(deferred_add_.size()));
  for (const Handle& h : deferred_add_) put_handle(w, h);

  if (with_components != 0) {
    w.raw(std::string_view("components\0", 11));
    w.u32(with_components);
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const WorldObject* o = slots_[i].object.get();
      if (o == nullptr || o->components.empty()) continue;
      w.u32(static_cast<std::uint32_t>(i));
      o->components.encode(w);
    }
  }
  if (with_raw_properties != 0) {
    w.raw(std::string_view("raw-properties-v1\0", 18));
    w.u32(with_raw_properties);
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      const WorldObject* o = slots_[i].object.get();
      if (o == nullptr || o->raw_properties.empty()) continue;
      w.u32(static_cast<std::uint32_t>(i));
      put_raw_properties(w, o->raw_properties);
    }
  }
}

core::Bytes World::canonical_state() const {
  StateWriter w;
  encode_state(w);
  const core::ByteView v = w.view();
  return core::Bytes(v.begin(), v.end());
}

std::uint64_t World::compute_state_hash() const {
  encode_state(scratch_);
  return core::hash64(scratch_.view());
}

}  // namespace sortie::world
