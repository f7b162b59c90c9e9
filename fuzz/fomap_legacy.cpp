// Fuzzes the legacy map readers (format detection, bare-section and classic migration) and checks
// that the bare-section rename only adds the `$Name/` prefixes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/migrate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::fomap;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  MigrateOptions options;
  options.tile_proto = "Tile";
  auto r = migrate_map(text, "fuzz.fomap", options);
  if (!r) return 0;
  // "[Item]" -> "[$Name/Item]" adds six bytes (fewer when the brackets held blanks).
  if (r->from == LegacyFormat::bare_v2 && r->text.size() > size + 6 * r->renamed_sections) __builtin_trap();
  if (r->from == LegacyFormat::current && r->text != text) __builtin_trap();
  // The result must be readable by the current grammar.
  const MapContainer c = MapContainer::from_text(r->text, "fuzz.fomap");
  (void)c.loadable();
  return 0;
}
