// Seeds of fuzz_save_game: a run save and a played save with one action of each kind, written
// by save_json with this build's id and a valid checksum.
#include "sortie/mission/save_game.hpp"

#include <string>

#include "seeds.hpp"

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
