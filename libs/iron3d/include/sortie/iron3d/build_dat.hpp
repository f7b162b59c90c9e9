#pragma once
// `BuildDat.lst`: building categories and their unit DAT paths (spec §17, seed 000).
//
//   // comment
//   Bunker_Small 2
//   "UNITS\BUILDS\bunk_s1.dat"
//   "UNITS\BUILDS\bunk_s2.dat"
//   Generator 1
//   "UNITS\BUILDS\gen.dat"
//
// Twelve category names map to fixed 32-bit masks (build_categories()). An unknown name, a
// duplicate category or broken structure is a diagnostic; a category that is absent has no
// mask (mask_of returns nullopt and check reports it) — it never silently becomes 0.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

struct BuildCategoryInfo {
  std::string_view name;  // exact, case-sensitive
  std::uint32_t mask;
};

// The 12 known categories in file order (spec §17.2).
std::span<const BuildCategoryInfo> build_categories();
// Mask of a known category name (exact match); nullopt for an unknown name.
std::optional<std::uint32_t> build_category_mask(std::string_view name);

struct BuildDatUnit {
  std::string path;      // between the quotes, e.g. UNITS\BUILDS\gen.dat
  std::size_t line = 0;  // 1-based
};

struct BuildDatCategory {
  std::string name;
  std::uint32_t mask = 0;  // from the table; always the known mask of `name`
  std::size_t line = 0;    // 1-based line of the header
  std::vector<BuildDatUnit> units;
};

struct BuildDat {
  std::vector<BuildDatCategory> categories;  // file order (duplicates kept in compatible)
  // The exact file bytes; write_build_dat reproduces them. To change the categories, build a
  // new document with make_build_dat.
  std::string text;

  // Mask of a category present in the file; nullopt when absent (never a default 0).
  [[nodiscard]] std::optional<std::uint32_t> mask_of(std::string_view name) const;
  [[nodiscard]] const BuildDatCategory* find(std::string_view name) const;
};

struct BuildDatReadOptions {
  core::Profile profile = core::Profile::strict;
  std::string file_name = "BuildDat.lst";
};

// Codes (offset = byte offset of the line, message names the 1-based line):
//   build_dat.utf8                 not valid UTF-8
//   build_dat.structure            header shape (two tokens, unsigned count) or the section runs out of lines
//   build_dat.category_unknown     name not in the table
//   build_dat.category_duplicate   same category twice (strict error; compatible warning, both kept)
//   build_dat.path                 a unit line that is not a quoted, non-empty path of A-Z a-z 0-9 _ . / \ -
core::Result<BuildDat> read_build_dat(core::ByteView data, const BuildDatReadOptions& options = {},
                                      core::Diagnostics* warnings = nullptr);

// Findings on a decoded document: each known category that is absent (its mask would be
// zero: build_dat.category_missing) and each category with no units (build_dat.category_empty).
core::Diagnostics check_build_dat(const BuildDat& doc, std::string_view file_name = "BuildDat.lst");

// The exact bytes of doc.text.
core::Bytes write_build_dat(const BuildDat& doc);

// Canonical document from categories (name + unit paths; masks and lines are filled in).
// Fails on an unknown name, a duplicate, or a path the reader would reject.
core::Result<BuildDat> make_build_dat(const std::vector<BuildDatCategory>& categories);

core::Json build_dat_to_json(const BuildDat& doc);

FormatInfo build_dat_format_info();

}  // namespace sortie::iron3d
