#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"

#include <vector>

// Each format's header declares `FormatInfo <name>_format_info();`. Add one include and one
// row per format below, one per line, so concurrent additions merge cleanly.

namespace sortie::iron3d {

std::span<const FormatInfo> all_formats() {
  static const std::vector<FormatInfo> kFormats = {
      nres_format_info(),
      rsli_format_info(),
  };
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

}  // namespace sortie::iron3d
