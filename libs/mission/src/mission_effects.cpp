#include "sortie/mission/mission_effects.hpp"

#include <fmt/format.h>

#include "sortie/core/text.hpp"
#include "sortie/scenario/lua_mission.hpp"

namespace sortie::mission {
namespace {

using assets::Edge;
using assets::EdgeKind;
using assets::NodeKind;

// MISSIONS/<m>/<file> beside data.tma, when it exists.
std::optional<assets::GamePath> beside_tma(const assets::Vfs& vfs, const assets::MissionData& md,
                                           std::string_view file) {
  const std::string_view dir = md.tma_path.parent();
  auto path = assets::normalize_path(dir.empty() ? std::string(file) : fmt::format("{}/{}", dir, file),
                                     assets::PathPolicy::host_compatible);
  if (!path || !vfs.exists(*path)) return std::nullopt;
  return *path;
}

std::optional<MissionWeather> read_weather(const assets::Vfs& vfs, assets::MissionData& md, core::Profile profile,
                                           std::uint32_t mission_node) {
  const auto path = beside_tma(vfs, md, "sky.weather");
  if (!path) return std::nullopt;
  const std::uint32_t to = md.graph.node(NodeKind::weather, path->path);
  const Edge edge{mission_node, to, EdgeKind::mission_to_weather, -1, -1, -1, std::nullopt};
  auto bytes = vfs.read(*path);
  auto schedule = bytes ? env::read_weather_text(*bytes, path->path)
                        : core::Result<env::WeatherSchedule>(core::fail(bytes.error()));
  if (schedule) {
    md.graph.add_edge(edge);
    return MissionWeather{path->path, std::move(*schedule)};
  }
  core::Diagnostic d = std::move(schedule).error();
  d.message = fmt::format("{}: mission_to_weather -> {}: {} ({})", md.tma_path.path, path->path, d.message, d.code);
  d.code = "load.weather_invalid";
  if (d.file.empty()) d.file = path->path;
  if (profile == core::Profile::compatible) {
    d.severity = core::Severity::warning;
    md.graph.warnings.push_back(std::move(d));  // --compatible: the mission loads without its weather
  } else {
    md.graph.fail(edge, std::move(d));
  }
  return std::nullopt;
}

// Adds the resolved effect to md.effects once (by its name's key).
void keep(assets::MissionData& md, std::optional<assets::ResolvedEffect> resolved) {
  if (!resolved) return;
  const std::string key = resolved->ref.key();
  for (const auto& e : md.effects)
    if (e.ref.key() == key) return;
  md.effects.push_back(std::move(*resolved));
}

}  // namespace

std::optional<MissionWeather> resolve_mission_effects(const assets::Vfs& vfs, assets::PrototypeResolver& resolver,
                                                      assets::MissionData& md, core::Profile profile) {
  const std::uint32_t mission_node = md.graph.node(NodeKind::mission, md.tma_path.path);
  auto weather = read_weather(vfs, md, profile, mission_node);
  if (weather && !weather->schedule.lightning_effect.empty()) {
    assets::EffectRequest r;
    r.name = weather->schedule.lightning_effect;
    r.from_node = md.graph.node(NodeKind::weather, weather->path);
    r.edge = EdgeKind::weather_to_effect;
    r.via = fmt::format("{} -> effect lightning", weather->path);
    r.field = "effect lightning";
    keep(md, resolver.resolve_effect(md.tma_path.path, r, md.graph));
  }
  if (const auto lua = beside_tma(vfs, md, "mission.lua")) {
    // The script's own edge (mission_to_lua_script) is the loader's; a script that does not read
    // names nothing here.
    if (auto bytes = vfs.read(*lua)) {
      const std::uint32_t from = md.graph.node(NodeKind::lua_script, lua->path);
      for (const std::string& name : scenario::lua_effect_names(core::as_chars(*bytes))) {
        assets::EffectRequest r;
        r.name = name;
        r.from_node = from;
        r.edge = EdgeKind::lua_script_to_effect;
        r.via = fmt::format("{} -> effect(\"{}\")", lua->path, name);
        r.field = fmt::format("effect(\"{}\")", name);
        keep(md, resolver.resolve_effect(md.tma_path.path, r, md.graph));
      }
    }
  }
  return weather;
}

}  // namespace sortie::mission
