#pragma once
// A save's world image (docs/save-files.md, ADR 0021): the whole world's state as data at the save
// tick, assembled from each area's own image (world::world_image: objects, components, clocks,
// RNG stream, events, pending commands and deferred operations; the movement stack's and the
// effects' components; scenario::ScenarioRuntime::image: the native bundles, the Lua script's
// data, SuperAI per clan). Loading re-simulates to the tick and compares the world it reached
// with the image entry by entry, so a difference names the object or area and the field.
//
//   {"world": world image, "scenario": runtime image | null}
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::world {
class World;
}
namespace sortie::scenario {
class ScenarioRuntime;
}
namespace sortie::assets {
struct MissionData;
}

namespace sortie::mission {

// The image of `world` and its scenario runtime (null: a run without one).
core::Json save_image(const world::World& world, const scenario::ScenarioRuntime* runtime);

// The clan name of a clan index (data.tma order); empty when unknown. For mismatch messages.
using ClanNamer = std::function<std::string(std::int64_t clan)>;
ClanNamer clan_namer(const assets::MissionData& data);

// The first entry where `loaded` differs from `saved`, as a sentence: "object 0x… (clan Raiders)
// position: saved (12.5, 4, 0) vs loaded (12.5, 4.25, 0)", "world rng[1]: saved … vs loaded …",
// "scenario part superai:Raiders radar[2] (unit 0x…) target: saved … vs loaded …";
// nullopt when they are equal.
std::optional<std::string> first_image_difference(const core::Json& saved, const core::Json& loaded,
                                                  const ClanNamer& clans = {});
// save.mismatch at `tick` naming that entry, or ok.
core::Status compare_save_image(const core::Json& saved, const core::Json& loaded, std::uint64_t tick,
                                const ClanNamer& clans = {});

// Shape checks of an image read from a file (save.field): "world" an object with the members
// world_image writes, objects arrays of object_fields' length; "scenario" null or an object with
// "parts". Limits (save.limit, mission/limits.hpp): objects, nesting depth, text bytes.
core::Status check_save_image(const core::Json& image);

// A summary for `sortie save show`: objects per class and per clan, the clocks, pending commands
// and events, the scenario's objectives and outcome, each SuperAI's plans (orders counted).
core::Json save_image_summary(const core::Json& image);

}  // namespace sortie::mission
