#pragma once
// `MISSIONS/<mission>/mission.cfg` (spec §21.5, §24; seed 001 "Ambient variations и переход
// день/ночь"): the mission's named resource objects (ambient music loop and variations, sound
// resources). The field-level schema is not known (spec §28 item 12); this is sortie's reading,
// documented in docs/mission-cfg.md. Line-oriented text, split at '\n' (a line may end in "\r\n";
// the last line may have no ending):
//
//   // comment                 `//`, `;` or `#` as the first non-blank: a comment line
//   object ambient_music_loop  opens a block; the name is the rest of the line, trimmed
//     desc ambient_music_loop  a field: key = first token (up to a space or tab),
//     library "music.lib"      value = the rest of the line, trimmed, quotes kept as written
//     THEME theme01.wav
//   end                        closes the block
//
// Keys (and the words `object` / `end`) compare ASCII-case-insensitively. Every line is kept with
// its bytes and its ending, so write(read(x)) == x byte for byte (cp1251 bytes included). A field
// or object line whose key/value (name) was changed in code is rendered canonically: the line's
// original indentation, the key, one space, the value (no space when the value is empty), and the
// original line ending. A field added by set() takes the indentation and line ending of the
// line before it. A line without an ending that is not the file's last gets "\n" on writing.
// Lookup: the first field with a key (case-insensitive) is the effective one; repeated keys are
// all kept in order (find_all). Objects with the same name are all kept; find() gives the first.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

// A demo mission.cfg is a few kilobytes; the limits (limits.hpp, kMissionCfgMax*) bound the memory a
// hostile file can ask for.

// `invalid`: a malformed line the compatible profile kept (reported as a warning); written as read.
enum class MissionCfgLineKind : std::uint8_t { blank, comment, object, field, end, invalid };
std::string_view to_string(MissionCfgLineKind kind);

struct MissionCfgLine {
  MissionCfgLineKind kind = MissionCfgLineKind::field;
  std::string key;         // field: the key as written; object / end: the keyword as written
  std::string value;       // field: the rest of the line, trimmed, quotes kept; object: the name
  std::string raw;         // the line as read, without its ending ("" for a line made in code)
  std::string ending;      // "\n", "\r\n", or "" for the last line of a file without a final newline
  std::size_t number = 0;  // 1-based line number in the file read; 0 for a line made in code
  std::size_t offset = 0;  // byte offset of the line in the file read
  // The value without one pair of surrounding double quotes ("a b" -> a b); as is otherwise.
  [[nodiscard]] std::string_view text() const;
  bool operator==(const MissionCfgLine&) const = default;
};

struct MissionCfgObject {
  std::vector<MissionCfgLine> before;   // blank, comment (and compatible: invalid) lines before `object`
  MissionCfgLine open;                  // kind object; value = the name
  std::vector<MissionCfgLine> lines;    // fields, comments and blank lines inside, in file order
  std::optional<MissionCfgLine> close;  // kind end; absent only for an unterminated block kept by
                                        // the compatible profile (nothing written for it)

  [[nodiscard]] std::string_view name() const { return open.value; }
  // The first field with `key` (case-insensitive), nullptr when absent.
  [[nodiscard]] const MissionCfgLine* find(std::string_view key) const;
  [[nodiscard]] MissionCfgLine* find(std::string_view key);
  // Every field with `key`, in file order.
  [[nodiscard]] std::vector<const MissionCfgLine*> find_all(std::string_view key) const;
  [[nodiscard]] std::vector<const MissionCfgLine*> fields() const;
  // The named fields, typed: text() of the first `desc` / `library`; the first `type` /
  // `libtype` as a decimal i32 (nullopt when absent, or malformed in a compatible read).
  [[nodiscard]] std::optional<std::string_view> desc() const;
  [[nodiscard]] std::optional<std::string_view> library() const;
  [[nodiscard]] std::optional<std::int32_t> type() const;
  [[nodiscard]] std::optional<std::int32_t> libtype() const;
  // Edits the first field with `key` (its line is then rendered canonically) or adds a new
  // field after the last field (at the end of the block when it has none). Errors: mission_cfg.edit (a key that is
  // empty, holds a blank or starts a comment; a value with a control byte or unbalanced quotes; a `type`/`libtype`
  // value that is not a decimal i32).
  core::Status set(std::string_view key, std::string_view value);
  bool operator==(const MissionCfgObject&) const = default;
};

struct MissionConfig {
  std::vector<MissionCfgObject> objects;  // in file order
  std::vector<MissionCfgLine> after;      // lines after the last block (all of them when none)
  // The first object named `name` (case-insensitive), nullptr when absent.
  [[nodiscard]] const MissionCfgObject* find(std::string_view name) const;
  [[nodiscard]] std::size_t line_count() const;
  bool operator==(const MissionConfig&) const = default;
};

// Errors (strict; the compatible profile keeps the line as `invalid`, or the value untyped, and
// reports a warning), with the line number in the message, the line's byte offset and a field
// path ("objects[i].lines[j]", "lines[n]" for lines outside a block):
//   mission_cfg.syntax        a field outside a block, `object` inside a block, `object` without
//                             a name, `end` outside a block, `end` followed by text
//   mission_cfg.unterminated  the file ends inside a block (compatible: the block is kept open)
//   mission_cfg.value         `type` / `libtype` not a decimal i32
//   mission_cfg.quote         a value (or name) with an odd number of double quotes
//   mission_cfg.character     a control byte other than tab (NUL, a bare CR, ...) in a line
// Always fatal: mission_cfg.limit (file over kMissionCfgMaxBytes, a line over
// kMissionCfgMaxLineBytes, more than kMissionCfgMaxLines lines). Warning (both profiles): mission_cfg.duplicate (a
// block repeats one of desc / library / libtype / type; the first counts).
core::Result<MissionConfig> read_mission_cfg(core::ByteView data, const ReadOptions& options = {},
                                             core::Diagnostics* warnings = nullptr);
core::Bytes write_mission_cfg(const MissionConfig& config);

core::Json mission_cfg_json(const MissionConfig& config);
FormatInfo mission_cfg_format_info();

}  // namespace sortie::iron3d
