// Fuzzes the squad viewer's key script reader: an accepted script answers keys_at / shots_at for
// every frame it names without crashing, and its length covers every entry.
#include "sortie/game/squad_key_script.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::game;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto script = parse_key_script(text, "fuzz.keys");
  if (!script) return 0;
  const std::uint64_t n = script->length();
  for (const KeyScriptEntry& e : script->entries) {
    if (e.from > e.to || e.to >= n || e.to >= kKeyScriptFramesMax) __builtin_trap();
    (void)script->keys_at(e.from);
    (void)script->shots_at(e.to);
  }
  return 0;
}
