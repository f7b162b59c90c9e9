// The format table (sortie/formats/formats.hpp).
// clang-format off
#include "sortie/formats/formats.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/wear.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/fxid.hpp"
#include "sortie/iron3d/land_map.hpp"
#include "sortie/iron3d/land_msh.hpp"
#include "sortie/iron3d/scr.hpp"
#include "sortie/iron3d/varset.hpp"
#include "sortie/iron3d/fml.hpp"
#include "sortie/iron3d/trf.hpp"
#include "sortie/iron3d/ctld.hpp"
#include "sortie/iron3d/wave.hpp"
#include "sortie/iron3d/behavior_ini.hpp"
#include "sortie/iron3d/mission_cfg.hpp"

#include <vector>

#include "sortie/iron3d/build_dat.hpp"
#include "sortie/iron3d/tma.hpp"
// clang-format on

// Each format's header declares `FormatInfo <name>_format_info();`. Add one include and one
// row per format below, one per line, so concurrent additions merge cleanly.

namespace sortie::formats {

using namespace iron3d;

std::span<const FormatInfo> all_formats() {
  // clang-format off
  static const std::vector<FormatInfo> kFormats = {
      nres_format_info(),
      rsli_format_info(),
      unit_dat_format_info(),
      object_refs_format_info(),
      msh_format_info(),
      wear_format_info(),
      mat0_format_info(),
      texm_format_info(),
      fxid_format_info(),
      build_dat_format_info(),
      tma_format_info(),
      land_msh_format_info(),
      land_map_format_info(),
      scr_format_info(),
      varset_format_info(),
      fml_format_info(),
      trf_format_info(),
      ctld_format_info(),
      wave_format_info(),
      behavior_ini_format_info(),
      mission_cfg_format_info(),
      fomap_format_info(),
      weather_format_info(),
      sample_manifest_format_info(),
      mission_script_format_info(),
  };
  // clang-format on
  return kFormats;
}

const FormatInfo* find_format(std::string_view name) {
  for (const auto& f : all_formats())
    if (f.name == name) return &f;
  return nullptr;
}

const FormatInfo* detect_format(core::ByteView data, std::string_view file_name) {
  const FormatInfo* best = nullptr;
  int best_score = 0;
  for (const auto& f : all_formats()) {
    const int score = f.detect ? f.detect(data, file_name) : 0;
    if (score > best_score) {
      best = &f;
      best_score = score;
    }
  }
  return best;
}

}  // namespace sortie::formats
