#pragma once
// `data.tma`, the Iron3D mission description (spec iron3d-formats.md §6, seed 000).
//
// The file is strictly sequential: paths, clans, placed objects, an epilogue (land path,
// mission flag, raw description) and "extra" records, ending exactly at end of file.
// Every raw word and every length-prefixed string is kept byte for byte, so
// write_tma(read_tma(bytes)) == bytes for every accepted input.
//
// Strings are raw legacy bytes (Windows-1251 for display). Use tma_text_utf8() or the JSON
// model to show them; never re-encode them when writing.
//
// Building a mission in code (the sample generator does this):
//
//   Tma t;                                     // versions 1/6/10/1/1, empty sections
//   t.land_path = "DATA\\MAPS\\Tut_1\\land";
//   t.add_path(30, {{1, 2, 3}, {4, 5, 6}});
//   t.add_clan(TmaClan::standard("Alpha", 1, {10, 20}, "MISSIONS\\SCRIPTS\\default", 7, "", 8));
//   t.add_clan(TmaClan::spatial("Beta", {0, 0}, "first", {{{1, 2, 3, 4, 5}}}, "second", 9));
//   auto& tree = t.add_object(TmaObject::placed("s_tree_04", "tree_01", {418.5F, 717.25F, 3.0F}));
//   tree.add_property("Life state", {1, 0, 0, 0});
//   t.add_extra({{5, 6, 7}, {0, 0, 0, 0}});
//   auto bytes = write_tma(t);                 // Result<Bytes>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/math.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

// Known contract values (spec §6.1, §6.3).
inline constexpr std::uint32_t kTmaFormatVersion = 1;
inline constexpr std::uint32_t kTmaClanSectionVersion = 6;
inline constexpr std::uint32_t kTmaObjectSectionVersion = 10;
inline constexpr std::uint32_t kTmaPropertySchemaVersion = 1;
inline constexpr std::uint32_t kTmaExtraSectionVersion = 1;
inline constexpr std::uint32_t kTmaObjectFlags = 0x80000002u;

// Limits (spec §6.1, §6.2): limits.hpp (kTmaMax*); counts above them are rejected before any allocation.

// PathRecord: `path_id` is the identity scripts refer to (not the index; may be negative).
struct TmaPath {
  std::int32_t id = 0;
  std::vector<core::Vec3> points;
};

struct TmaRelation {
  std::string other_clan;  // raw bytes
  std::int32_t value = 0;
};

// Mode-0 clans carry groups of raw 5-float spatial records (live files: one record per group).
using TmaSpatialRecord = std::array<float, 5>;
struct TmaSpatialGroup {
  std::vector<TmaSpatialRecord> records;
};

// ClanRecord (spec §6.2). `mode` selects the body layout:
//   1..3 "standard": first_resource, first_tag, second_resource, second_tag
//   0    "spatial":  first_resource (no tag), spatial_groups, second_resource, second_tag
// `first_tag` is meaningful for standard bodies only; `spatial_groups` for mode 0 only
// (the writer ignores the field the mode does not have).
struct TmaClan {
  std::string name;
  std::int32_t raw_id = -1;
  float anchor_x = 0, anchor_y = 0;
  std::uint32_t mode = 1;
  std::string first_resource;  // script/formula base (e.g. MISSIONS\SCRIPTS\default)
  std::int32_t first_tag = 0;
  std::vector<TmaSpatialGroup> spatial_groups;
  std::string second_resource;  // TRF or empty
  std::int32_t second_tag = 0;
  std::vector<TmaRelation> relations;  // physical order kept

  [[nodiscard]] bool is_spatial() const { return mode == 0; }

  static TmaClan standard(std::string name, std::uint32_t mode, std::array<float, 2> anchor, std::string first_resource,
                          std::int32_t first_tag, std::string second_resource, std::int32_t second_tag);
  static TmaClan spatial(std::string name, std::array<float, 2> anchor, std::string first_resource,
                         std::vector<TmaSpatialGroup> groups, std::string second_resource, std::int32_t second_tag);
  TmaClan& add_relation(std::string other_clan, std::int32_t value);
};

// One entry of an object's ordered property bag: four raw words then a name. Order and
// duplicate names are significant; never sort or deduplicate.
struct TmaProperty {
  std::array<std::uint32_t, 4> raw{};
  std::string name;  // raw bytes
};

// PlacedObject (spec §6.3).
struct TmaObject {
  std::uint32_t raw_kind = 0;
  std::uint32_t flags = kTmaObjectFlags;  // class_or_flags
  std::string resource_name;              // prototype key (s_tree_04) or unit DAT path (...\w_m_wlk2.dat)
  std::uint32_t raw_after_resource = 0;
  std::uint32_t identity_or_clan_raw = 0;
  core::Vec3 position;
  core::Vec3 orientation;  // radians, Rz(z)*Ry(y)*Rx(x)
  core::Vec3 scale{1, 1, 1};
  std::string instance_name;
  std::uint32_t raw_after_name = 0;
  std::int32_t link0 = -1, link1 = -1;
  std::uint32_t property_schema_version = kTmaPropertySchemaVersion;
  std::vector<TmaProperty> properties;

  static TmaObject placed(std::string resource_name, std::string instance_name, core::Vec3 position,
                          core::Vec3 orientation = {}, core::Vec3 scale = {1, 1, 1});
  TmaProperty& add_property(std::string name, std::array<std::uint32_t, 4> raw = {});
  // First property with this exact (byte-equal) name, or nullptr.
  [[nodiscard]] const TmaProperty* find_property(std::string_view name) const;
  TmaProperty* find_property(std::string_view name);
};

// ExtraRecord28: position + four raw words (kept unnormalised).
struct TmaExtra {
  core::Vec3 position;
  std::array<std::uint32_t, 4> raw{};
};

// The whole document. Version words are kept raw (compatible profile may have read other values).
struct Tma {
  std::uint32_t format_version = kTmaFormatVersion;
  std::vector<TmaPath> paths;
  std::uint32_t clan_section_version = kTmaClanSectionVersion;
  std::vector<TmaClan> clans;
  std::uint32_t object_section_version = kTmaObjectSectionVersion;
  std::vector<TmaObject> objects;  // runtime identity = index (0-based, TMA order)
  std::string land_path;           // e.g. DATA\MAPS\Tut_1\land
  std::uint32_t mission_flag = 0;
  std::string description_raw;  // may hold service bytes; raw identity
  std::uint32_t extra_section_version = kTmaExtraSectionVersion;
  std::vector<TmaExtra> extras;

  TmaPath& add_path(std::int32_t id, std::vector<core::Vec3> points);
  TmaClan& add_clan(TmaClan clan);
  TmaObject& add_object(TmaObject object);
  TmaExtra& add_extra(TmaExtra extra);
};

struct TmaReadOptions {
  core::Profile profile = core::Profile::strict;
  std::string file_name = "data.tma";  // used in diagnostics
};

// Decodes a whole data.tma. Strict: version words (1, 6, 10, 1, 1), object flags 0x80000002
// and finite transforms are enforced. Compatible: other values are kept raw and reported in
// `warnings` (when given). Unknown clan modes, truncation, counts past the end or above the
// limits, and trailing bytes are errors in both profiles.
// Codes: tma.eof, tma.overflow, tma.limit, tma.string_too_long, tma.trailing, tma.version,
//        tma.clan.mode_unknown, tma.object.flags, tma.object.non_finite.
core::Result<Tma> read_tma(core::ByteView data, const TmaReadOptions& options = {},
                           core::Diagnostics* warnings = nullptr);

// Parses through the objects and returns only the land path (used to load terrain first).
core::Result<std::string> read_tma_land_path(core::ByteView data, const TmaReadOptions& options = {});

// Cross-reference checks on a decoded mission (seed 000: "clan relations are range-checked, the
// physical order is kept"). Findings are warnings, never fatal, so the reader's verdicts do not
// change: tma.clan.relation_unknown (a relation names no clan of this file),
// tma.clan.relation_self (a clan relates to itself), tma.clan.name_duplicate (two clans share a
// name, so relations to it are ambiguous).
core::Diagnostics check_tma(const Tma& tma, std::string_view file_name = "data.tma");

// Byte-exact writer. Fails (code tma.write.*) when the document cannot be read back:
// a string over 64 KiB (tma.write.string_too_long), a count over its limit (tma.write.limit),
// or a clan mode outside 0..3 (tma.write.clan_mode). The field path names the culprit.
core::Result<core::Bytes> write_tma(const Tma& tma);
// Exact size write_tma would produce.
std::size_t tma_encoded_size(const Tma& tma);

// JSON model (`sortie inspect --json`): the spec's field names; text decoded from CP1251 with
// "<field>_hex" beside any string whose bytes do not survive decoding.
core::Json tma_to_json(const Tma& tma);

// CP1251 -> UTF-8 for display (lossy bytes become U+FFFD).
std::string tma_text_utf8(std::string_view raw);

FormatInfo tma_format_info();

}  // namespace sortie::iron3d
