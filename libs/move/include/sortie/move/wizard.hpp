#pragma once
// Wizard (seed 001 "Wizard"): the short-term correction of one unit's direction around the
// nearest body in its way, inside the corridor. It keeps a wizard path of one detour point
// beside the obstacle until the unit has passed it; Behavior clears it (ClearWizardPath) on a
// new target, a damaged global path or when the unit stops. Near static bodies (buildings) the
// speed drops to PathFind_NearBuildSpeedPercent.
#include <span>

#include "sortie/core/math.hpp"
#include "sortie/move/components.hpp"
#include "sortie/move/params.hpp"
#include "sortie/nav/areal_map.hpp"
#include "sortie/world/ids.hpp"

namespace sortie::move {

struct Neighbour {
  world::ObjectId id;
  core::Vec2 xy{};
  float radius = 0.0f;
  bool is_static = false;
};

void clear_wizard_path(WizardState& state);

struct WizardResult {
  core::Vec2 direction{};  // corrected unit direction (the requested one without an obstacle)
  float speed_factor = 1.0f;
};

// `near`: the bodies around the unit (not itself), ascending ObjectId. The obstacle is the
// nearest body ahead (0 < along <= PathFind_BuildingNearestDist + radii) whose lateral offset is
// below the two radii plus PathFind_fStepOffBuilding; the detour point sits beside it on the
// side away from its offset (coincident: the side of the lower ObjectId), at most
// PathFind_CorridorRadius off the requested line, and must lie in a walkable areal (else the
// other side; else no detour).
WizardResult wizard_correct(WizardState& state, world::ObjectId self, core::Vec2 position, float radius,
                            core::Vec2 requested, std::span<const Neighbour> near, const MoveParams& params,
                            const nav::ArealMap* areals);

}  // namespace sortie::move
