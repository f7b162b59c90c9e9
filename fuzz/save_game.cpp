// Fuzzes the save-file reader (target fuzz_save_game): a file a user hands to `sortie run --load`
// or the viewer's quick load. Any bytes: the nesting depth checked on the text (as read_save does,
// before parsing), JSON parsed without exceptions, then save_from_json (the header, the world
// image's shape and limits, the checksum); an accepted save written again with save_json reads
// back equal, and its summary (`sortie save show`) is made without failing.
#include "sortie/mission/save_game.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sortie/core/json.hpp"
#include "sortie/mission/limits.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (mission::json_text_depth(text, mission::kMaxSaveDepth) > mission::kMaxSaveDepth) return 0;
  const core::Json j = core::Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  auto save = mission::save_from_json(j);
  if (!save) return 0;
  auto again = mission::save_from_json(mission::save_json(*save));
  if (!again || !(*again == *save)) __builtin_trap();
  (void)mission::save_show_text(*save);
  return 0;
}
