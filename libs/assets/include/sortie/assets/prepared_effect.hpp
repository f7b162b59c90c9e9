#pragma once
// A prepared effect (seed 000 step 7 "FXID dependencies", spec §19): an FXID definition read into
// the typed fields sortie executes, beside the raw record it came from. docs/effects.md is the
// contract; in short:
//
//   header    lifetime_ms = round(duration_seconds * 1000) (spec §19.2: end = start + duration);
//             time_mode 0..3 give the effect value v(tn) (tn = normalised lifetime): 0 -> 1,
//             1 -> tn, 2 -> fract(tn), 3 -> 1 - tn; flags 0x200 (v *= tn) then 0x20 (triangular
//             remap) as the spec orders them; flags 0x8 shifts the origin by a seeded random
//             amount within random_shift; scale multiplies offsets and body sizes. Every other
//             time_mode (4..17 read external values), flag bit and the pivot are kept, not run.
//   opcode 1  a point light, opcode 2 a sound command, opcode 3 a body with its material: their
//             fields below (offsets from the command start, word included; spec §19.6 gives
//             the layout, "sortie reading" marks where the spec names a group but not its role).
//   others    opcodes 4..10 are kept (bytes and reference) and listed as not executed.
//
// A command is executed when it is enabled and its fields are usable; a finite value sortie
// cannot use (a window ending before it starts, a range of 0, a frequency ratio of 0 ...) keeps
// the command as "not executed: <why>" with a fx.command_skipped warning. A value that is not
// finite (or beyond kMaxEffectValue) where sortie reads it, or a lifetime that is not finite,
// negative or over kMaxEffectSeconds, refuses the whole effect (fx.field, fx.duration): no NaN or
// infinity reaches a light, a sound source or a vertex.
//
// The field layouts are written by the same tables that read them (write_*_fields), so the
// sample game and tests build FXIDs field by field with the reader's offsets.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/iron3d/fxid.hpp"

namespace sortie::assets {

struct PreparedMaterial;

// Where effects live and how a name finds one: "name" is in effects.rlb, "archive/name" (the last
// '/' or '\' separates them) in that archive. Both parts compare ASCII case-insensitively.
inline constexpr std::string_view kDefaultEffectArchive = "effects.rlb";
struct EffectRef {
  std::string archive;
  std::string name;
  static EffectRef parse(std::string_view text);  // empty archive -> kDefaultEffectArchive
  [[nodiscard]] std::string to_string() const;    // "archive/name"
  [[nodiscard]] std::string key() const;          // folded "ARCHIVE/NAME": identity
  [[nodiscard]] bool empty() const { return name.empty(); }
  bool operator==(const EffectRef&) const = default;
};

// A part of the lifetime, as fractions of it (0 = the start, 1 = the end). A command shows while
// start <= tn <= end; its own progress is u = (tn - start) / (end - start). An all-zero window (a
// zero-filled command) is read as the whole lifetime [0, 1].
struct EffectWindow {
  float start = 0.0f;
  float end = 1.0f;
  bool operator==(const EffectWindow&) const = default;
};

// Opcode 1 (224 bytes): a point light.
//   +4 mode (kept) | +8 +12 window | +16 offset min, +28 offset max (vec3, at u) | +40 +52 a second
//   min/max pair (kept) | +64..+108 quaternion min/max/span (kept) | +112 range min, +116 range max
//   (the light's radius in world units, at u; sortie reading of "scalar min/max") | +120 strength
//   (the colour's scale at v = 1; sortie reading of "amplitude") | +124 RGB | +136..+156 kept |
//   +160 optional reference (kept).
struct EffectLightFields {
  std::uint32_t mode = 0;
  EffectWindow window;
  core::Vec3 offset_min{}, offset_max{};
  float range_min = 0.0f, range_max = 0.0f;
  float strength = 0.0f;
  core::Vec3 color{};
  bool operator==(const EffectLightFields&) const = default;
};

// Opcode 2 (148 bytes): a sound command, started once when the lifetime reaches the window's start.
//   +4 mode (kept; 0..3 -> manager flags 0/512/2/514) | +8 +12 window | +16 offset min (the
//   source's offset; +28 offset max is kept) | +40 +52 a second min/max pair (kept) | +64..+76
//   four floats: sortie reads +64 min_distance, +68 max_distance, +72 frequency_ratio and keeps
//   +76 (the spec names "four floats" only: PROVISIONAL, docs/effects.md) | +80 u32 parameter of
//   manager command 910 (kept) | +84 archive[32] + name[32]: the sample.
struct EffectSoundFields {
  std::uint32_t mode = 0;
  EffectWindow window;
  core::Vec3 offset{};
  std::array<float, 4> params{};  // +64..+76 as stored
  std::uint32_t parameter = 0;    // +80
  [[nodiscard]] float min_distance() const { return params[0]; }
  [[nodiscard]] float max_distance() const { return params[1]; }
  [[nodiscard]] float frequency_ratio() const { return params[2]; }
  bool operator==(const EffectSoundFields&) const = default;
};

// Opcode 3 (200 bytes): a body (drawn as a quad) with its material.
//   +4 mode (kept) | +8 alpha source (>= 0: the command's progress u, < 0: the effect value v) |
//   +12 +16 alpha powers (kept) | +20 alpha min, +24 alpha max, +28 alpha power: alpha =
//   min + (max - min) * a^power | +32 +36 window | +40 size min, +52 size max (the native
//   descriptor, e.g. [40, 40, 600]) | +64 offset min, +76 offset max (of the body's centre from
//   the origin) | +88 +100 a third min/max pair (kept) | +112 size power, +124 offset power (per
//   axis: value = min + (max - min) * u^power; a power <= 0, as in a zero-filled body, is 1) |
//   +136 archive[32] + name[32]: the material.
struct EffectBodyFields {
  std::uint32_t mode = 0;
  float alpha_source = 0.0f;
  float alpha_min = 0.0f, alpha_max = 0.0f, alpha_power = 0.0f;
  EffectWindow window;
  core::Vec3 size_min{}, size_max{};
  core::Vec3 offset_min{}, offset_max{};
  core::Vec3 size_power{}, offset_power{};
  bool operator==(const EffectBodyFields&) const = default;
};

// Reads / writes a command's typed fields at their offsets (the command's opcode and size are the
// caller's: read_* expect a body of that opcode's size, write_* leave every other byte as it is).
EffectLightFields read_light_fields(const iron3d::FxidCommand& command);
EffectSoundFields read_sound_fields(const iron3d::FxidCommand& command);
EffectBodyFields read_body_fields(const iron3d::FxidCommand& command);
void write_light_fields(iron3d::FxidCommand& command, const EffectLightFields& fields);
void write_sound_fields(iron3d::FxidCommand& command, const EffectSoundFields& fields);
void write_body_fields(iron3d::FxidCommand& command, const EffectBodyFields& fields);

// One command as sortie runs it: the typed fields of an executed opcode, or why it is only kept.
struct PreparedEffectCommand {
  std::size_t index = 0;  // in the FXID's command list
  std::uint32_t opcode = 0;
  bool enabled = false;
  std::variant<std::monostate, EffectLightFields, EffectSoundFields, EffectBodyFields> fields;
  std::string reference_archive;  // the command's archive[32] + name[32], NUL-cut and trimmed ("" when none)
  std::string reference_name;
  // Set when the command is not executed: "opcode 7 is not executed", "disabled", "range 0".
  std::string kept_because;
  // Opcode 3: the material the store prepared for the reference (null before the store binds it,
  // or when the mission drew without it).
  std::shared_ptr<const PreparedMaterial> material;
  [[nodiscard]] bool executed() const { return kept_because.empty(); }
};

struct PreparedEffect {
  std::string archive;  // game path of the archive ("effects.rlb")
  std::string entry;    // FXID entry name as stored
  iron3d::Fxid fx;      // the record as read: every byte a writer needs
  std::int64_t lifetime_ms = 0;
  std::vector<PreparedEffectCommand> commands;
  // What the header asks that sortie does not run (time_mode 4..17, flag bits, a pivot), one
  // phrase each, for the instance's start trace.
  std::vector<std::string> header_kept;
  core::Diagnostics warnings;  // fx.command_skipped, one per command kept for its values
  [[nodiscard]] std::string label() const { return archive + "/" + entry; }
  // The effect value v at normalised lifetime tn (0..1) from time_mode and flags 0x200, 0x20.
  [[nodiscard]] float value_at(float tn) const;
};

// The time modes sortie evaluates (spec §19.2: 0 constant, 1 tn, 2 fract(tn), 3 1 - tn).
[[nodiscard]] bool effect_time_mode_known(std::uint32_t time_mode);

// Errors: fx.duration (lifetime not finite, negative or over kMaxEffectSeconds), fx.field (a value
// sortie reads is not finite or beyond kMaxEffectValue: field names command, opcode, offset), fx.limit (more than
// kMaxEffectCommands commands). `archive` and `entry` name the effect in diagnostics.
core::Result<PreparedEffect> prepare_effect(const iron3d::Fxid& fx, std::string archive, std::string entry);

// The seed's lightning as an FXID (seed 001: the descriptor [40, 40, 600], the thunder's min
// distance 100, max 1500, frequency ratio 1), built with the field tables above: the sample game's
// effects.rlb:lightning and sortie's stand-in when a game has none (env::choose_lightning_effect).
// Lifetime 0.25 s, time_mode 3 (the value falls 1 -> 0 over the lifetime); opcode 1: a light of
// range 2000, strength 2, colour (0.85, 0.9, 1.0) at the origin; opcode 2: the sample
// `sound_archive`/`sound_name` 300 units below the origin (the strike: the origin is the
// descriptor's centre, strike + (0, 0, 300)); opcode 3: material.lib/`material` on the body,
// alpha following the value. A name longer than a reference's 31 bytes leaves that reference
// empty (the command is then kept, not executed).
iron3d::Fxid lightning_fxid(std::string_view sound_archive, std::string_view sound_name, std::string_view material);

// The material references of the executed bodies (opcode 3), in command order: what the mission
// graph resolves (effect_to_material) and the visual store prepares.
std::vector<std::string> effect_material_names(const PreparedEffect& effect);

}  // namespace sortie::assets
