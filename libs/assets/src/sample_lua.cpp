#include "sample_lua.hpp"

#include <fmt/format.h>

namespace sortie::assets::detail {

namespace {

// {0}: mission number, {1}: depot distance past the formation's edge, {2}: the time limit in seconds,
// {3}: the time limit when a person plays.
constexpr const char* kMissionLua =
    R"lua(-- MISSIONS/m{0:02}/mission.lua: the sample's scenario, in sortie's own mission script API
-- (docs/mission-scripts.md). Written by the sortie sample generator.
--
-- The Player clan (1) sends its units to a depot {1} units past the edge of its formation toward
-- the map's middle (the second posts a picket near its start); the first to enter the depot wins the
-- mission. When a person plays, the depot lies halfway to the Enemy's units instead. An Enemy (2)
-- reinforcement appears after 2 seconds and follows the lead unit; a spare Player unit is
-- recalled after 3 seconds. If nobody reached the depot after {2} seconds, the mission is lost.
-- When a person plays (human(), the viewer's game), the orders are theirs: the script only tells
-- them where the depot is (a beacon pulses over it), gives them {3} seconds, and loses the
-- mission when every unit is gone.
local PLAYER, ENEMY = 1, 2
local HUMAN = human()
local x0, y0, x1, y1 = bounds()

-- Globals are the script's state: they are part of the scenario's state hash.
scouts = units(PLAYER)
if #scouts == 0 then scouts = units() end
raiders = units(ENEMY)
arrivals = 0
lost = 0

lead = scouts[1]
depot = {{ x = (x0 + x1) / 2, y = (y0 + y1) / 2 }}
if lead then
  -- From the middle of the Player's formation (its units stand in rings round it).
  local lx, ly = 0, 0
  for _, id in ipairs(scouts) do
    local x, y = position(id)
    lx, ly = lx + x / #scouts, ly + y / #scouts
  end
  local reach = 0
  for _, id in ipairs(scouts) do
    local x, y = position(id)
    reach = math.max(reach, math.sqrt((x - lx) ^ 2 + (y - ly) ^ 2))
  end
  local dx, dy = depot.x - lx, depot.y - ly
  local d = math.sqrt(dx * dx + dy * dy)
  if d < 1 then dx, dy, d = 1, 0, 1 end
  dx, dy = dx / d, dy / d
  depot.x, depot.y = lx + dx * (reach + {1}), ly + dy * (reach + {1})
  -- On walkable ground: nearer, then farther, then to either side, 4 units a step.
  for step = 1, 12 do
    if areal_at(depot.x, depot.y) then break end
    local k = (step + 1) // 2 * 4 * (step % 2 == 1 and -1 or 1)
    local side = step > 8 and (step % 2 == 1 and 8 or -8) or 0
    depot.x = lx + dx * (reach + {1} + k) - dy * side
    depot.y = ly + dy * (reach + {1} + k) + dx * side
  end
  if HUMAN and #raiders > 0 then
    local ex, ey = 0, 0
    for _, id in ipairs(raiders) do
      local x, y = position(id)
      ex, ey = ex + x / #raiders, ey + y / #raiders
    end
    depot.x, depot.y = (lx + ex) / 2, (ly + ey) / 2
  end
end
zone_circle("depot", depot.x, depot.y, 8)

on_start(function()
  objective_add("reach", "Bring a Player unit to the depot")
  objective_add("picket", "Post a picket near the start")
  if not lead then
    win("no unit to escort")
    return
  end
  if HUMAN then
    picket = scouts[2]
    message(string.format("Reach the depot at %.0f, %.0f before the enemy catches you.", depot.x, depot.y))
    if picket then message("Send a second unit out as a picket.") end
    -- A beacon pulses over the depot (effects.rlb:beacon, docs/effects.md).
    effect("beacon", depot.x, depot.y)
    every(4, function() effect("beacon", depot.x, depot.y) end)
    return
  end
  for i, id in ipairs(scouts) do
    if i == 2 then
      picket = id
      local px, py = position(id)
      go(id, px + 8, py)
    else
      go(id, depot.x, depot.y)
    end
  end
end)

on_enter("depot", function(unit, zone)
  if clan(unit) == PLAYER or unit == lead then
    trace("unit", unit, "entered the", zone)
    message("A unit reached the depot.")
    objective_complete("reach")
    win("a Player unit reached the depot")
  end
end)

on_arrive(function(unit, ok)
  arrivals = arrivals + 1
  if unit == picket and ok then
    objective_complete("picket")
    message("The picket is posted.")
  end
end)

on_destroyed(function(id)
  lost = lost + 1
  if not HUMAN then return end
  local ours, left = false, 0
  for _, s in ipairs(scouts) do
    if s == id then ours = true elseif alive(s) then left = left + 1 end
  end
  if ours then
    message("A unit was lost.")
    if left == 0 then
      objective_fail("reach")
      lose("every unit was lost")
    end
  end
end)

after(2, function()
  local proto = raiders[1] and prototype(raiders[1]) or "raider"
  -- Beside the depot, on walkable ground (the first of eight spots 12 out that an areal holds).
  local sx, sy = depot.x + 12, depot.y + 12
  for _, d in ipairs({{ {{12, 12}}, {{-12, 12}}, {{12, -12}}, {{-12, -12}}, {{17, 0}}, {{-17, 0}}, {{0, 17}}, {{0, -17}} }}) do
    if areal_at(depot.x + d[1], depot.y + d[2]) then
      sx, sy = depot.x + d[1], depot.y + d[2]
      break
    end
  end
  reinforcement = spawn(proto, sx, sy, ENEMY)
  if lead then follow(reinforcement, lead, 4) end
  if HUMAN then message("Enemy reinforcements near the depot!") end
end)

after(3, function()
  if not HUMAN and #scouts >= 3 then remove(scouts[#scouts]) end
end)

every(1, function()
  trace("tick", tick(), "arrivals", arrivals, "lost", lost)
end)

after(HUMAN and {3} or {2}, function()
  objective_fail("reach")
  lose("the depot was not reached in time")
end)
)lua";

}  // namespace

std::string sample_mission_lua(std::uint32_t mission_index) {
  return fmt::format(kMissionLua, mission_index + 1, 20 + 4 * mission_index, 20, 240);
}

}  // namespace sortie::assets::detail
