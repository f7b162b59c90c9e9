// Fuzzes the RsLi reader in both profiles: every accepted library must write back to the
// same bytes, every entry decodes (bounded) or fails with a diagnostic, and a forced
// rebuild by the editor must read back with the same decoded payloads.
#include "sortie/iron3d/rsli.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace {
constexpr std::uint64_t kMaxUnpacked = 1 << 20;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView input(data, size);
  for (const auto profile : {core::Profile::strict, core::Profile::compatible}) {
    auto options = iron3d::RsliReadOptions::from_profile(profile, "fuzz.rlb");
    options.limits.max_unpacked = kMaxUnpacked;
    auto archive = iron3d::read_rsli(input, options);
    if (!archive) continue;
    if (iron3d::write_rsli(*archive) != core::Bytes(input.begin(), input.end())) __builtin_trap();
    std::vector<std::optional<core::Bytes>> decoded;
    for (std::size_t i = 0; i < archive->entries.size(); ++i) {
      auto d = iron3d::decode_rsli_entry(*archive, i, kMaxUnpacked);
      if (d && d->size() != archive->entries[i].unpacked_size) __builtin_trap();
      if (d) {
        decoded.emplace_back(std::move(*d));
      } else {
        decoded.emplace_back(std::nullopt);
      }
      (void)iron3d::find_rsli_entry(*archive, archive->entries[i].name.text());
    }
    auto editor = iron3d::RsliEditor::open(*archive);
    if (!editor) __builtin_trap();
    auto same = editor->write();
    if (!same || *same != core::Bytes(input.begin(), input.end())) __builtin_trap();
    editor->force_rebuild();
    auto rebuilt = editor->write();
    if (!rebuilt) continue;
    auto again = iron3d::read_rsli(*rebuilt, iron3d::RsliReadOptions::from_profile(core::Profile::compatible));
    if (!again || again->entries.size() != archive->entries.size()) __builtin_trap();
    for (std::size_t i = 0; i < decoded.size(); ++i) {
      if (!decoded[i] || !iron3d::rsli_method_known(archive->entries[i].method_bits())) continue;
      auto d = iron3d::decode_rsli_entry(*again, i, kMaxUnpacked);
      if (!d || *d != *decoded[i]) __builtin_trap();
    }
  }
  return 0;
}
