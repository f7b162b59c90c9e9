// Fuzzes the save-file reader (target fuzz_save_game): a file a user hands to `sortie run --load`
// or the viewer's quick load. Any bytes: JSON parsed without exceptions, then save_from_json; an
// accepted save written again with save_json reads back equal.
#include "sortie/mission/save_game.hpp"

#include <cstddef>
#include <cstdint>

#include "sortie/core/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::Json j = core::Json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  auto save = mission::save_from_json(j);
  if (!save) return 0;
  auto again = mission::save_from_json(mission::save_json(*save));
  if (!again || !(*again == *save)) __builtin_trap();
  return 0;
}
