// Fuzzes the AngelScript declaration index of `sortie fomap lint --scripts` (script_index.hpp).
// Invariants: no crash, no hang (one linear pass, no recursion); every indexed function is
// found again by its qualified name, has a non-empty name and return type, and its line lies
// inside the input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "sortie/fomap/script_index.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::fomap;
  const std::string text(reinterpret_cast<const char*>(data), size);
  ScriptIndex index;
  index.add_source(text, "fuzz.fos");
  const auto lines = static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::size_t total = 0;
  for (const auto& [name, overloads] : index.all()) {
    const auto* found = index.find(name);
    if (!found || found != &overloads) __builtin_trap();
    for (const auto& f : overloads) {
      if (f.qualified_name != name || name.empty() || f.return_type.empty()) __builtin_trap();
      if (f.line == 0 || f.line > lines) __builtin_trap();
      (void)f.signature();
      ++total;
    }
  }
  if (total != index.size()) __builtin_trap();
  (void)normalize_script_type(std::string_view(text).substr(0, 256));
  return 0;
}
