#pragma once
// The sample game's native script bundles (sample_scripts.cpp): MISSIONS\SCRIPTS\ with the
// player, enemy and spatial packages (.scr), their formula exports (.fml), the shared
// varset.var and enemy.trf, written by sortie's own writers so that every script reference the
// sample's data.tma files make resolves (docs/script-bundles.md, "The sample's bundles").
#include <map>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::assets::detail {

// Game path -> bytes. `trf_names` are the prototype keys enemy.trf lists (keys of the sample's
// objects.rlb). Independent of the seed's random stream.
core::Result<std::map<std::string, core::Bytes>> sample_script_files(const std::vector<std::string>& trf_names);

}  // namespace sortie::assets::detail
