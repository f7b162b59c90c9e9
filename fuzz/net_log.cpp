// Fuzzes the message log reader and replay: a log that reads must write back to the same bytes,
// and replaying it must end in a result or a diagnostic, never a crash.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/net/message_log.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  auto log = net::read_message_log(core::ByteView(data, size));
  if (!log) return 0;
  auto back = net::write_message_log(*log);
  if (!back || back->size() != size || !std::equal(back->begin(), back->end(), data)) __builtin_trap();
  (void)net::replay_message_log(*log);
  return 0;
}
