#pragma once
// The Mapper's canonical text (spec/fomap.md §9): `[ProtoMap]` first, critters each followed by
// their inventory, map items each followed by their direct children, byte-sorted keys, only
// values that differ from the proto, Mapper value formatting, the MultihexMesh continued-pair
// layout, one blank line after every section; and the splice that rewrites one map of a
// multi-map container keeping sibling blocks byte-exact.
#include <string>
#include <string_view>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/project.hpp"

namespace sortie::fomap {

struct CanonicalOptions {
  // Deviation from the Mapper, on purpose: the Mapper always writes `$Name = <map>`; we keep
  // the anchor as authored (an unnamed single-map anchor stays unnamed) unless this is set.
  bool always_write_name = false;
  // Read the result back and format it again; a text that would not come back the same (a
  // value the grammar reads differently, such as a trailing `\` or a `#`) is refused with
  // `fomap.fmt.unstable` instead of being written.
  bool verify_fixed_point = true;
};

// Canonical text of one map (the block the Mapper would write). Fails (`fomap.fmt.*`) when the
// map cannot be loaded the way the Mapper loads it (structure errors, unknown property, bad
// value, unresolved owner, ...).
core::Result<std::string> format_map(const MapContainer& container, std::string_view map_name, const Project& project,
                                     const CanonicalOptions& options = {});

// Splice (§9.5.4): replaces the ranges owned by `map_name` in `original` with `block`, keeping
// the prefix and every sibling range byte-exact; appends when the map had no range.
std::string splice_map(std::string_view original, std::string_view stem, std::string_view map_name,
                       std::string_view block);

// Canonical text of a whole container: a single-map file is replaced whole; a multi-map file
// gets each map spliced in (one pass over the file: the same text as splicing the maps one
// after another). Linear in the size of the file.
core::Result<std::string> format_container(const MapContainer& container, const Project& project,
                                           const CanonicalOptions& options = {});

// format_container over a file's text, for tools that format files: the parsed input is released
// before the result is read back for the fixed-point check, so at most one parsed copy of the
// map is held at a time. `changed` tells whether the canonical text differs from the input.
struct FormattedText {
  std::string text;
  bool changed = false;
};
core::Result<FormattedText> format_text(std::string text, const std::string& path, const Project& project,
                                        const CanonicalOptions& options = {});

}  // namespace sortie::fomap
