#include "sortie/mission/mission_loader.hpp"

#include <fmt/format.h>

#include <chrono>

#include "sortie/core/text.hpp"
#include "sortie/env/environment.hpp"
#include "sortie/iron3d/behavior_ini.hpp"
#include "sortie/mission/class_ids.hpp"
#include "sortie/move/commands.hpp"
#include "sortie/move/params.hpp"
#include "sortie/nav/iron3d_input.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/scenario/lua_mission.hpp"

namespace sortie::mission {

using core::Transform;
using world::Properties;
using world::WorldObject;
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

Transform to_transform(const iron3d::TmaObject& o) {
  Transform t;
  t.position = {o.position.x, o.position.y, o.position.z};
  t.orientation = {o.orientation.x, o.orientation.y, o.orientation.z};
  t.scale = {o.scale.x, o.scale.y, o.scale.z};
  return t;
}

// Every TMA property record, verbatim (ADR 0020): file order, repeated names, all four raw
// words (their meaning depends on the consumer). The name is decoded from CP1251 for display;
// when that decoding is lossy the file's bytes are kept beside it.
void copy_properties(const iron3d::TmaObject& o, world::RawProperties& out) {
  for (const auto& p : o.properties) {
    core::DecodedText name = core::cp1251_to_utf8(p.name);
    world::RawProperty r;
    r.name = std::move(name.utf8);
    if (!name.lossless) r.name_bytes = p.name;
    r.words = p.raw;
    out.add(std::move(r));
  }
}

// world::HeightField over the prepared terrain (libs/nav); queries are const and deterministic.
class TerrainGround final : public HeightField {
 public:
  explicit TerrainGround(std::shared_ptr<const nav::TerrainWorld> terrain) : terrain_(std::move(terrain)) {}
  [[nodiscard]] std::optional<float> height_at(float x, float y) const override { return terrain_->height_at(x, y); }

 private:
  std::shared_ptr<const nav::TerrainWorld> terrain_;
};

// The game directory's Behavior.ini as movement parameters; nullopt-free defaults when absent.
// Errors: the reader's (behavior_ini.*), move.params.range, and the VFS's on a read failure.
core::Result<move::MoveParams> movement_params(const assets::Vfs& vfs, core::Profile profile,
                                               core::Diagnostics& warnings) {
  auto path = assets::normalize_path("Behavior.ini");
  if (!path || !vfs.exists(*path)) return move::MoveParams{};
  SORTIE_TRY(auto bytes, vfs.read(*path));
  iron3d::ReadOptions ro;
  ro.profile = profile;
  ro.file_name = "Behavior.ini";
  SORTIE_TRY(auto ini, iron3d::read_behavior_ini(bytes, ro, &warnings));
  return move::params_from_behavior_ini(ini);
}

// MISSIONS/<m>/mission.lua beside data.tma: absent, no edge; present, compiled. A read or
// syntax error is a failed mission_to_lua_script edge (strict) or a warning and no script
// (compatible). Returns the script to run.
std::optional<MissionScript> check_mission_script(const assets::Vfs& vfs, assets::MissionData& md,
                                                  core::Profile profile) {
  using assets::Edge;
  const std::string_view dir = md.tma_path.parent();
  auto path = assets::normalize_path(dir.empty() ? std::string("mission.lua") : fmt::format("{}/mission.lua", dir),
                                     assets::PathPolicy::host_compatible);
  if (!path || !vfs.exists(*path)) return std::nullopt;
  const std::uint32_t from = md.graph.node(assets::NodeKind::mission, md.tma_path.path);
  const std::uint32_t to = md.graph.node(assets::NodeKind::lua_script, path->path);
  const Edge edge{from, to, assets::EdgeKind::mission_to_lua_script, -1, -1, -1, std::nullopt};
  auto bytes = vfs.read(*path);
  core::Status st =
      bytes ? scenario::check_lua_script(core::as_chars(*bytes), path->path) : core::Status(core::fail(bytes.error()));
  if (st) {
    md.graph.add_edge(edge);
    return MissionScript{path->path, std::string(core::as_chars(*bytes))};
  }
  core::Diagnostic d = std::move(st).error();
  d.message = fmt::format("{}: mission_to_lua_script -> {}: {}", md.tma_path.path, path->path, d.message);
  if (profile == core::Profile::compatible) {
    d.severity = core::Severity::warning;
    md.graph.warnings.push_back(std::move(d));  // --compatible: the mission loads without its script
  } else {
    md.graph.fail(edge, std::move(d));
  }
  return std::nullopt;
}

}  // namespace

std::shared_ptr<const HeightField> make_terrain_ground(const assets::MissionData& data) {
  if (data.land_msh.faces.empty()) return nullptr;
  auto terrain = nav::terrain_world_from(data.land_msh);
  if (!terrain) return nullptr;  // cannot happen on a validated Land.msh (face references checked on read)
  return std::make_shared<TerrainGround>(std::make_shared<const nav::TerrainWorld>(std::move(*terrain)));
}

core::Json MissionLoadReport::to_json() const {
  core::Json timings_json = core::Json::array();
  for (const auto& t : timings) timings_json.push_back({{"phase", t.phase}, {"ms", t.milliseconds}});
  return core::Json{{"mission", mission},
                    {"ok", ok},
                    {"object_chain", object_chain.to_json()},
                    {"mission_total", mission_total.to_json()},
                    {"failures", core::diagnostics_json(failures)},
                    {"warnings", core::diagnostics_json(warnings)},
                    {"timings", timings_json},
                    {"visuals", visuals.to_json()},
                    {"constructed", constructed},
                    {"registered", registered}};
}

core::Result<LoadedMission> build_world(std::shared_ptr<const assets::MissionData> data,
                                        std::shared_ptr<const assets::VisualStore> visuals,
                                        const MissionLoadOptions& options, std::vector<assets::PhaseTiming>& timings) {
  if (!data || !visuals)
    return core::fail(
        core::Diagnostic::error("world.load.cross_reference", "no prepared data or visual store to build from"));
  LoadedMission lm;
  lm.data = data;
  lm.visuals = visuals;
  lm.effects = env::EffectLibrary::from_store(*visuals);
  SORTIE_TRY(lm.movement,
             move::make_environment(data->land_msh, data->land_map, options.movement.value_or(move::MoveParams{})));
  WorldConfig config = options.world;
  if (!config.commands) config.commands = scenario::scenario_command_registry(lm.movement, lm.effects);
  lm.world = std::make_unique<World>(config);
  World& w = *lm.world;
  const auto& objects = data->tma.objects;

  // Phase 6: construction. Every object is created unregistered (pending, invisible to the
  // queue and to presentation) with its transform, ownership and properties.
  auto t0 = Clock::now();
  if (options.progress) options.progress("construct", 0, objects.size());
  lm.objects.reserve(objects.size());
  SORTIE_CHECK(w.classes().add(mission::kClasses));
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const auto& o = objects[i];
    const auto& resolved = data->objects.at(i);
    const bool unit = resolved.via_unit_dat;
    const ObjectId id{w.local_player(), unit ? mission::class_ids::kTmaUnit : mission::class_ids::kTmaStatic,
                      static_cast<std::uint32_t>(i + 1)};
    auto handle = w.create_object(id, resolved.resource_name, to_transform(o));
    if (!handle) return core::fail(std::move(handle.error()).within(fmt::format("objects[{}]", i)));
    WorldObject* obj = w.find(*handle);
    copy_properties(o, obj->raw_properties);
    obj->properties.set("placed_index", static_cast<std::int64_t>(i));
    obj->properties.set("clan", static_cast<std::int64_t>(o.identity_or_clan_raw));
    obj->properties.set("components", static_cast<std::int64_t>(resolved.components.size()));
    lm.objects.push_back({static_cast<std::int32_t>(i), id, *handle, unit, resolved.components.size()});
  }
  timings.push_back({"construct", ms_since(t0)});

  // Phase 7: cross-reference validation, then registration of everything at once.
  t0 = Clock::now();
  if (options.progress) options.progress("register", 0, lm.objects.size());
  for (const auto& info : lm.objects) {
    const auto& resolved = data->objects.at(static_cast<std::size_t>(info.placed_index));
    if (resolved.components.size() != info.components)
      return core::fail(
          core::Diagnostic::error("world.load.cross_reference", "component count changed during construction")
              .in(fmt::format("objects[{}]", info.placed_index)));
    const assets::PreparedPlacement* placement = visuals->placement(info.placed_index);
    if (!placement || placement->components.size() != resolved.components.size())
      return core::fail(
          core::Diagnostic::error("world.load.cross_reference", "placed object without its prepared placement")
              .in(fmt::format("objects[{}]", info.placed_index)));
    for (std::size_t k = 0; k < resolved.components.size(); ++k) {
      const auto& c = resolved.components[k];
      const assets::PreparedPrototype* proto = placement->components[k].prototype;
      if (!proto || (c.geometric && (!proto->visual || !proto->visual->mesh)))
        return core::fail(
            core::Diagnostic::error("world.load.cross_reference", "geometric component without a prepared visual")
                .in(fmt::format("objects[{}]", info.placed_index))
                .expect("a prepared mesh and WEAR table", c.key));
    }
    const WorldObject* obj = w.find(info.handle);
    if (!obj || obj->registered())
      return core::fail(core::Diagnostic::error("world.load.cross_reference", "object not pending before registration")
                            .in(fmt::format("objects[{}]", info.placed_index)));
  }
  for (const auto& info : lm.objects) SORTIE_CHECK(w.add_to_game(info.handle));
  timings.push_back({"register", ms_since(t0)});

  // Phase 8: ground: the height field the movement controllers snap Z to is installed; the
  // first calculation tick is allowed. (Seed 000 calls this phase "scenario start": scripts,
  // timers and the first tick. Until the scenario layer fills it, it only installs the ground
  // and is named for that, in the report's timings too.)
  t0 = Clock::now();
  // The default ground shares the movement environment's terrain (built once).
  using GroundFn = std::shared_ptr<const HeightField> (*)(const assets::MissionData&);
  const GroundFn* fn = options.make_ground.target<GroundFn>();
  if (fn != nullptr && *fn == &make_terrain_ground) {
    if (lm.movement->terrain) w.set_height_field(std::make_shared<TerrainGround>(lm.movement->terrain));
  } else if (options.make_ground) {
    w.set_height_field(options.make_ground(*data));
  }
  timings.push_back({"ground", ms_since(t0)});
  return lm;
}

core::Result<MissionLoadReport> MissionSession::load(std::string_view mission) {
  // One shared default object: gcc 12 reports a false -Wmaybe-uninitialized on the shared_ptr
  // members when a temporary is built and destroyed here.
  static const MissionLoadOptions kDefaults;
  return load(mission, kDefaults);
}

core::Result<MissionLoadReport> MissionSession::load(std::string_view mission, const MissionLoadOptions& options) {
  MissionLoadReport report;
  assets::MissionPrepareOptions po;
  po.profile = options.profile;
  po.progress = options.progress;
  SORTIE_TRY(auto prepared, assets::prepare_mission(repo_, resolver_, mission, po));
  std::optional<MissionScript> script;
  if (options.scripts) script = check_mission_script(repo_.vfs(), prepared, options.profile);
  std::optional<MissionWeather> weather = resolve_mission_effects(repo_.vfs(), resolver_, prepared, options.profile);
  report.mission = prepared.tma_path.path;
  report.object_chain = prepared.object_chain;
  report.mission_total = prepared.graph.stats;
  report.failures = prepared.graph.failures();
  report.warnings = prepared.graph.warnings;
  report.timings = prepared.timings;
  if (!prepared.ok()) return report;  // nothing constructed, nothing registered, world untouched

  // Phase 5: resource preparation (the prepared-visual store).
  auto t0 = Clock::now();
  if (options.progress) options.progress("resources", 0, prepared.objects.size());
  assets::VisualStoreOptions vo = options.visuals;
  vo.profile = options.profile;
  auto visuals = assets::build_visual_store(repo_, visual_cache_, prepared, vo);
  report.timings.push_back({"resources", ms_since(t0)});
  if (!visuals) {
    report.failures.push_back(std::move(visuals.error()));
    return report;
  }
  report.visuals = (*visuals)->stats();
  for (const auto& d : (*visuals)->warnings()) report.warnings.push_back(d);

  // Behavior.ini of the game directory -> the movement parameters (unless the options set them).
  MissionLoadOptions build_options = options;
  if (!build_options.movement) {
    auto params = movement_params(repo_.vfs(), options.profile, report.warnings);
    if (!params) {
      report.failures.push_back(std::move(params.error()));
      return report;
    }
    build_options.movement = std::move(*params);
  }
  auto data = std::make_shared<const assets::MissionData>(std::move(prepared));
  auto built = build_world(data, *visuals, build_options, report.timings);
  if (!built) {
    report.failures.push_back(std::move(built.error()));
    return report;
  }
  report.constructed = built->objects.size();
  report.registered = built->world->queue().size();
  report.ok = true;
  built->script = std::move(script);
  if (weather) {
    // The strike's effect: the schedule's FXID when the mission prepared it, else the stand-in
    // with a warning (weather.lightning_effect, weather.lightning_builtin).
    built->lightning =
        env::choose_lightning_effect(weather->schedule, built->effects.get(), &report.warnings, weather->path);
    built->weather = std::move(weather);
  }
  current_ = std::move(*built);  // publish: the previous world is released only now
  return report;
}

}  // namespace sortie::mission
