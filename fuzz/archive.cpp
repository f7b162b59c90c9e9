// Fuzzes the archive facade: detection by content, open in both profiles, payloads (NRes views;
// RsLi decodes up to 1 MiB in total), lookup by every item's display name, and the edits'
// encoders. An NRes or RsLi input must open exactly when its own reader accepts it.
#include "sortie/iron3d/archive.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView input(data, size);
  const auto format = iron3d::detect_archive(input);
  for (const auto profile : {core::Profile::strict, core::Profile::compatible}) {
    auto archive = iron3d::Archive::open(core::SharedBytes::copy_of(input), {profile, "fuzz.lib"});
    if (!format) {
      if (archive || archive.error().code != "archive.unknown") __builtin_trap();
      return 0;
    }
    const bool reader_accepts =
        *format == iron3d::ArchiveFormat::nres
            ? iron3d::read_nres(input, {profile, "fuzz.lib", {}}).has_value()
            : iron3d::read_rsli(input, iron3d::RsliReadOptions::from_profile(profile, "fuzz.lib")).has_value();
    if (archive.has_value() != reader_accepts) __builtin_trap();
    if (!archive) continue;
    if (archive->format() != *format || archive->size() != archive->items().size()) __builtin_trap();
    std::uint64_t unpacked = 0;
    for (std::size_t i = 0; i < archive->size(); ++i) {
      const auto& item = archive->items()[i];
      // Only entries of a bounded total size are decoded (RsLi entries may claim 128 MiB).
      unpacked += item.size;
      if (unpacked <= (1u << 20)) {
        auto payload = archive->payload(i);
        if (payload && payload->size() != item.size) __builtin_trap();
      }
      const auto found = archive->find(item.name);
      if (found && *found >= archive->size()) __builtin_trap();
    }
    if (archive->size() > 0) {
      const std::vector<std::string> first{archive->items()[0].name};
      (void)iron3d::remove_archive_entries(*archive, first);
      (void)iron3d::rename_archive_entry(*archive, archive->items()[0].name, "renamed");
    }
    (void)iron3d::add_archive_entry(*archive, {.name = "added", .payload = {1, 2, 3}});
  }
  return 0;
}
