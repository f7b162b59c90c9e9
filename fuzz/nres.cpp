// Fuzzes the NRes reader in both profiles. An accepted
// archive must come back byte for byte from the lossless writer; lookups (hash index, sort
// table, linear scan) and the directory peek of format detection must agree; its canonical
// repack and editor encodes must be accepted again.
#include "sortie/iron3d/nres.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView input(data, size);
  for (const auto profile : {core::Profile::strict, core::Profile::compatible}) {
    iron3d::NresReadOptions options;
    options.profile = profile;
    auto archive = iron3d::read_nres(input, options);
    if (!archive) continue;
    const auto types = iron3d::nres_directory_types(input);  // format detection's peek
    if (!types || types->size() != archive->entries.size()) __builtin_trap();
    for (std::size_t g = 0; g < archive->gaps.size(); ++g) {
      const core::ByteView gap = archive->gap_bytes(g);
      if (archive->gap_is_zero(g) != std::all_of(gap.begin(), gap.end(), [](std::uint8_t b) { return b == 0; }))
        __builtin_trap();
    }
    const core::Bytes lossless = iron3d::write_nres_lossless(*archive);
    if (lossless.size() != size || !std::equal(lossless.begin(), lossless.end(), data)) __builtin_trap();
    for (const auto& e : archive->entries) {
      const std::string_view name = e.name.text();
      auto found = archive->find(name);
      if (!found || *found > static_cast<std::size_t>(&e - archive->entries.data())) __builtin_trap();
      if (archive->find_sorted(name) != found || archive->find_linear(name) != found) __builtin_trap();
      const std::string_view shorter = name.substr(0, name.size() - 1);
      if (archive->find(shorter) != archive->find_linear(shorter)) __builtin_trap();
      if (archive->find_sorted(shorter) != archive->find_linear(shorter)) __builtin_trap();
    }
    const core::Bytes canonical = iron3d::write_nres_canonical(*archive);
    auto again = iron3d::read_nres(canonical);  // strict: the rebuilt sort table must be valid
    if (!again || again->entries.size() != archive->entries.size()) __builtin_trap();
    if (iron3d::write_nres_canonical(*again) != canonical) __builtin_trap();
    iron3d::NresEditor editor(*archive);
    auto layout = editor.encode_lossless_layout();
    if (!layout || !iron3d::read_nres(*layout)) __builtin_trap();
  }
  return 0;
}
