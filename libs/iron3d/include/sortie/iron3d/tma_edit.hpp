#pragma once
// Editing a decoded data.tma: typed operations and the textual edits of `sortie tma edit`.
// Every edit keeps everything it does not touch byte for byte (property order, duplicates,
// raw words), so write_tma(edit(read_tma(x))) differs from x only where the edit says.
//
// Errors are diagnostics with codes
//   tma.edit.path      the field path does not parse or names no editable field
//   tma.edit.index     an object/property index is out of range
//   tma.edit.property  no property with that name on the object
//   tma.edit.value     the value does not parse for that field
//   tma.edit.text      the text has a character outside Windows-1251
// and the field path of the edit (e.g. `objects[3].properties[Life state]`).
#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {

using TmaWords = std::array<std::uint32_t, 4>;

// ---- typed operations (object and property indices are 0-based) ----

// Sets the raw words of the first property named `name` (raw bytes). Fails when there is none.
core::Status tma_set_property(Tma& tma, std::size_t object, std::string_view name, const TmaWords& raw);
// Appends a property (duplicates allowed: the bag is ordered, not a dictionary).
core::Status tma_add_property(Tma& tma, std::size_t object, TmaProperty property);
// Removes property `index`, or the first property named `name`.
core::Status tma_remove_property(Tma& tma, std::size_t object, std::size_t index);
core::Status tma_remove_property(Tma& tma, std::size_t object, std::string_view name);
core::Status tma_move_object(Tma& tma, std::size_t object, core::Vec3 position);
// Sets instance_name (raw bytes).
core::Status tma_rename_object(Tma& tma, std::size_t object, std::string instance_name);
// Appends an object; returns its index (the runtime identity of the new object).
core::Result<std::size_t> tma_add_object(Tma& tma, TmaObject object);
// Removes an object; later objects move down one index.
core::Status tma_remove_object(Tma& tma, std::size_t object);

// ---- values as text ----

// 1..4 comma-separated words: a decimal or 0x-hex integer (negative values stored as two's
// complement) or a float with an `f` suffix (`1.5f`, stored as its IEEE bits). The given words
// replace the leading words of `base`; the others keep their value. "1" on {7,8,9,10} -> {1,8,9,10}.
core::Result<TmaWords> parse_tma_words(std::string_view text, const TmaWords& base = {});

// UTF-8 text -> Windows-1251 bytes as stored in the file (tma.edit.text when not representable).
core::Result<std::string> tma_text_from_utf8(std::string_view utf8);

// An object in the JSON shape of `sortie inspect --json` (keys of tma_to_json's objects; a
// "<key>_hex" string gives raw bytes for a text key; "index" is ignored). Missing keys take
// TmaObject's defaults. Unknown keys are an error (tma.edit.value) so typos do not pass.
core::Result<TmaObject> tma_object_from_json(const core::Json& j);

// ---- textual edits (the `sortie tma edit` options) ----

enum class TmaEditKind : std::uint8_t {
  set,              // PATH=VALUE             (see apply_tma_edit)
  add_property,     // objects[N].properties[NAME]=WORDS   appended even when NAME exists
  remove_property,  // objects[N].properties[NAME] or objects[N].properties[K]
  move,             // N, x, y, z
  rename,           // N, NAME
  add_object,       // JSON object (tma_object_from_json)
  remove_object,    // N
};

struct TmaEdit {
  TmaEditKind kind = TmaEditKind::set;
  std::vector<std::string> args;  // as typed by the user (UTF-8)
};

// Applies one edit. `set` paths:
//   objects[N].properties[NAME]=WORDS        first property named NAME (UTF-8, stored CP1251)
//   objects[N].properties[K]=WORDS           property by index; NAME may be quoted: ["3"]
//   objects[N].properties[NAME|K].name=TEXT
//   objects[N].position|orientation|scale=X,Y,Z
//   objects[N].resource_name|instance_name=TEXT
//   objects[N].raw_kind|flags|raw_after_resource|identity_or_clan_raw|raw_after_name|link0|link1=INT
//   land_path=TEXT   mission_flag=INT
core::Status apply_tma_edit(Tma& tma, const TmaEdit& edit);
// Applies edits in order; stops at the first failure, naming the edit (1-based) in the message.
core::Status apply_tma_edits(Tma& tma, std::span<const TmaEdit> edits);

// ---- a file edited in place or into another file (`sortie tma edit`) ----

struct TmaFileEdit {
  std::filesystem::path input;
  std::filesystem::path output;  // may be the input; written atomically
  core::Profile profile = core::Profile::strict;
  std::vector<TmaEdit> edits;
};

struct TmaFileEditResult {
  std::size_t edits = 0;
  std::size_t bytes = 0;       // of the written file
  std::size_t objects = 0;     // in the written file
  core::Diagnostics warnings;  // from reading the input (compatible profile)
};

// Reads `input`, applies the edits in order and writes the result atomically. Nothing is written
// on any failure. Errors: the file's (io.*), the reader's (tma.*), the edit's (tma.edit.*, its
// file set to the input) and the writer's (file set to the output).
core::Result<TmaFileEditResult> edit_tma_file(const TmaFileEdit& request);

}  // namespace sortie::iron3d
