#pragma once
// The sample game's effects (sample_effects.cpp; docs/effects.md): effects.rlb with
//   lightning  the seed's lightning (assets::lightning_fxid): light, thunder THUNDER1.WAV, the bolt
//              body with material env_lightning (texture FX_BOLT: a jagged bolt on transparency);
//              the rain mission's sky.weather names it (`effect lightning effects.rlb/lightning`);
//   beacon     a pulse marking a place for 4 s (time_mode 0 with the triangular remap, flags
//              0x20: 0 -> 1 -> 0): a green light of range 60 and a 3 x 3 x 30 body with material
//              env_beacon (texture FX_GLOW), plus an opcode 7 command sortie keeps without
//              running (traced); mission.lua starts it at the depot when a person plays.
// Outside the seeded stream: nothing the seed draws changes.
#include "sortie/assets/game_builder.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::assets::detail {

core::Status add_sample_effects(GameBuilder& game);

}  // namespace sortie::assets::detail
