#pragma once
// The world's state as data, for a save's world image (docs/save-files.md, ADR 0021). It shows
// what the state hash covers (world_hash.cpp) and the pending commands, which the hash leaves out
// (input, not state): a loaded save re-simulates to its tick and compares this image, entry by
// entry, with the saved one.
//
//   {"clock": [tick, step_us, time_us, dt_us, scale_permille, paused],
//    (the maintenance clock is not in the image: it is never hashed and runs in real time in the viewer and the server)
//    "rng": [4 x "16 hex digits"],              the simulation stream's state words
//    "counters": [local_player, next_registration, next_event, commands_applied, commands_skipped],
//    "next_index": [[class, next], ...]         ascending class
//    "classes": [[id, name], ...]               the class registry's rows, ascending id
//    "slots": count, "free_slots": [slot, ...]  FIFO order
//    "object_fields": [names of the object array's members, below],
//    "objects": [[id, slot, generation, owner, flags, registration, prototype, position,
//                 orientation, scale, properties, raw_properties, components, controller], ...]
//                 in slot order; id "16 hex digits"; flags letters of m(irror) r(egistered)
//                 a (pending add) d (pending delete) A(ctive) V(isible); position/orientation/
//                 scale [x, y, z]; properties [[key, tag 0 int|1 double|2 string, value], ...]
//                 in insertion order; raw_properties [[name, name bytes hex, w0, w1, w2, w3], ...];
//                 components {name: image}; controller null or {"kind", "state": image}
//    "queue": [[slot, generation], ...], "events": [[sequence, type, target slot, target gen,
//    other slot, other gen, a, b], ...], "deferred_delete" / "deferred_add": [[slot, gen], ...],
//    "pending_commands": [{"tick", "kind", "payload"}, ...]   the command log's JSON form}
// Floats are core::f32_json / f64_json: they read back to the same bits.
#include "sortie/core/json.hpp"
#include "sortie/world/world.hpp"

namespace sortie::world {

// The names of an object's members in "objects" (object_fields).
inline constexpr const char* kImageObjectFields[] = {
    "id",       "slot",        "generation", "owner",      "flags",          "registration", "prototype",
    "position", "orientation", "scale",      "properties", "raw_properties", "components",   "controller"};

// world_image() is declared in world.hpp (a friend of World).

}  // namespace sortie::world
