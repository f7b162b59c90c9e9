#pragma once
// Legacy map formats -> the current nested format (spec/fomap.md §14).
//
// - bare sections v2: `[ProtoMap]` + bare `[Critter]` / `[Item]` bodies. Migration is the pure
//   header rename `[Critter]` -> `[$Name/Critter]`, `[Item]` -> `[$Name/Item]`; every other byte
//   (keys, values, comments, blank lines, line endings) is kept.
// - bare sections v1: as v2 plus `HexX`/`HexY`, `OffsetX`/`OffsetY`, `Width`/`Height`,
//   `WorkHexX`/`WorkHexY` keys and separate `[Tile]` sections. Bodies are rewritten (pairs joined
//   into `Hex`, `Offset`, `Size`, `WorkHex`); old property names that the engine still migrates on
//   load (`IsNoBlock`, `Slot`...) are kept; a key the target catalog does not know is not
//   written and is reported, as for classic maps.
// - classic SDK: `[Header]` / `[Tiles]` / `[Objects]` with whitespace-separated `Key value`
//   lines and numeric proto ids. Converted into Mapper-normal text (critters each followed by
//   their inventory, map items each followed by their direct children, byte-sorted keys).
//
// Whatever cannot be carried is reported (never dropped silently): one MigrationLoss per kind
// of loss with its count and the first line where it occurred.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/properties.hpp"
#include "sortie/fomap/protos.hpp"

namespace sortie::fomap {

enum class LegacyFormat : std::uint8_t { current, bare_v2, bare_v1, classic, unknown };
std::string_view to_string(LegacyFormat format);  // "current", "bare-sections-v2", ...

// Detection by section headers only (cheap): classic if any of `[Header]`, `[Tiles]`,
// `[Objects]` is present; bare if `[Critter]`, `[Item]` or `[Tile]` is present (v1 when `[Tile]`
// or a v1-only key is seen); current if only `[ProtoMap]` and nested sections; else unknown.
LegacyFormat detect_legacy_format(std::string_view text);

struct MigrateOptions {
  // Classic `ProtoId` -> proto name. Unmapped ids are written as the decimal id text and
  // reported (`fomap.migrate.proto_pid`), so a project with numeric proto names still works.
  std::map<std::int64_t, std::string> proto_names;
  // The target project's prototypes. A classic object naming its proto by `ProtoName` is written
  // with that prototype (Critter for critters, Item otherwise; proto migration rules of `catalog`
  // applied); a name this catalog lacks, a `ProtoName` without a catalog, or an object with
  // neither `ProtoId` nor `ProtoName` refuses the migration (`fomap.migrate.proto_name`, naming
  // the map and the line) instead of writing a placement without a usable `$Proto`.
  const ProtoCatalog* protos = nullptr;
  // Proto used for classic `[Tiles]` / v1 `[Tile]` entries (`tile`, `tile_l`) and roofs
  // (`roof*`); empty = tiles are not carried (reported as `fomap.migrate.tile`).
  std::string tile_proto;
  std::string roof_proto;
  // Map name written as `$Name` (empty = leave the anchor unnamed: the file stem names it).
  std::string map_name;
  // Classic and v1 conversion: a converted key that this catalog does not know for its receiver (Map,
  // Critter, Item) is not written and is reported (`fomap.migrate.unknown_property`), so the
  // result lints clean apart from what the report lists. nullptr = the engine catalog.
  const PropertyCatalog* catalog = nullptr;
};

struct MigrationLoss {
  std::string code;     // stable: "fomap.migrate.tile", ".header_key", ".object_key", ...
  std::string what;     // the key / kind that was not carried, e.g. "Critter_Anim1"
  std::string message;  // why
  std::uint32_t first_line = 0;
  std::uint64_t count = 0;
  [[nodiscard]] core::Json to_json() const;
};

struct MigrationResult {
  LegacyFormat from = LegacyFormat::unknown;
  std::string text;                   // current-format text
  std::vector<MigrationLoss> losses;  // sorted by code, what
  std::size_t critters = 0;
  std::size_t items = 0;
  std::size_t renamed_sections = 0;  // bare: headers renamed
  [[nodiscard]] bool lossless() const { return losses.empty(); }
  [[nodiscard]] core::Json to_json() const;
};

// Converts one legacy map file. Errors (`fomap.migrate.*`): unknown format; a classic proto that
// cannot be named (`proto_name`). A bare section that precedes every `[ProtoMap]` anchor is
// carried but reported. Current-format input is returned unchanged (from = current).
core::Result<MigrationResult> migrate_map(std::string_view text, std::string_view path,
                                          const MigrateOptions& options = {});

// The `<pid><TAB><proto name>` table of classic proto ids (`--proto-names`): empty lines and `#`
// comments are skipped, CRLF is accepted. Errors (`usage.proto_names`, naming the line): a line
// that is not `<decimal pid><TAB><name>`, a pid given twice.
core::Result<std::map<std::int64_t, std::string>> parse_proto_name_table(std::string_view text, std::string_view file);
core::Result<std::map<std::int64_t, std::string>> read_proto_name_table(const std::filesystem::path& path);

}  // namespace sortie::fomap
