// Seeds of fuzz_save_game: a run save and a played save with one action of each kind, written
// by save_json with this build's id and a valid checksum, each with a world image: an empty
// world's (world_image) with one unit added in the image's own shape (properties, components,
// a controller) and a scenario with a Lua part's globals.
#include "sortie/mission/save_game.hpp"

#include <string>

#include "seeds.hpp"
#include "sortie/mission/save_image.hpp"
#include "sortie/world/world.hpp"

SORTIE_FUZZ_SEEDS(save_game, [](sortie::fuzz::SeedSink& out) {
  using namespace sortie;
  auto add = [&](std::string name, const mission::SaveGame& s) {
    const std::string text = mission::save_json(s).dump(2);
    const auto b = core::as_bytes(text);
    out.add(std::move(name), core::Bytes(b.begin(), b.end()));
  };
  mission::SaveGame run;
  run.build = mission::save_build_id();
  run.sample_scale = "demo";
  run.mission = "MISSIONS/m01/data.tma";
  run.seed = 7;
  run.tick = 120;
  run.state_hash = 0x2b5c14679f519e7aULL;
  const world::World empty;
  run.image = mission::save_image(empty, nullptr);
  using core::Json;
  Json object = Json::array();
  for (const Json& v : {Json("0001001400000003"), Json(0), Json(1), Json(1), Json("rAV"), Json(1), Json("unit")})
    object.push_back(v);
  object.push_back(Json::array({12.5, 4.25, 0.0}));
  object.push_back(Json::array({0.0, 0.0, 1.5}));
  object.push_back(Json::array({1.0, 1.0, 1.0}));
  object.push_back(Json::array({Json::array({Json("clan"), Json(0), Json(1)})}));
  object.push_back(Json::array({Json::array({Json("Life state"), Json(""), Json(1), Json(0), Json(0), Json(0)})}));
  Json components = Json::object();
  components["move.control"]["speed"] = 2.5;
  components["move.control"]["heading"] = 0.75;
  components["move.behavior"]["mode"] = "following";
  object.push_back(std::move(components));
  Json controller = Json::object();
  controller["kind"] = "move.system";
  controller["state"]["members"] = Json::array({Json("0001001400000003")});
  object.push_back(std::move(controller));
  run.image["world"]["objects"].push_back(std::move(object));
  Json lua = Json::object();
  lua["name"] = "lua:MISSIONS/m01/mission.lua";
  lua["running"] = true;
  lua["state"]["globals"]["lost"] = 0;
  lua["state"]["globals"]["depot"]["x"] = 1.5;
  Json superai = Json::object();
  superai["name"] = "superai:Enemy";
  superai["running"] = true;
  Json radar = Json::object();
  radar["unit"] = "0001001400000004";
  radar["order"] = "pursue";
  superai["state"]["radar"] = Json::array({radar});
  run.image["scenario"] = Json::object();
  run.image["scenario"]["parts"] = Json::array({lua, superai});
  run.image["scenario"]["steps"] = 120;
  add("run", run);
  mission::SaveGame play = run;
  play.mode = mission::SaveMode::play;
  const world::ObjectId unit{1, 20, 3};
  mission::PlayAction go;
  go.tick = 10;
  go.kind = mission::ActionKind::go;
  go.units = {unit};
  go.point = {120.5f, 80.25f};
  mission::PlayAction follow = go;
  follow.tick = 20;
  follow.kind = mission::ActionKind::follow;
  follow.target = world::ObjectId{1, 20, 4};
  mission::PlayAction drive = go;
  drive.tick = 30;
  drive.kind = mission::ActionKind::drive;
  drive.speed = -2.5f;
  drive.turn = 0.75f;
  play.actions = {go, follow, drive};
  add("play", play);
});
