#pragma once
// Opt-in reference checks of the lint (spec/fomap.md §8.1 "missing resource", "script func
// missing/wrong signature/attribute", §8.3, §12.1, §13.3). Both run only when the caller gives
// an index (LintOptions::resources / ::scripts); without one nothing is reported and the
// check is listed by skipped_reference_checks.
//
// Findings (rule `map-format.rule.property-overrides`: "properties valid for the receiver"):
//   resource-missing    error   a Resource-tagged value names no file under the roots
//   resource-ambiguous  error   several files match case-insensitively, none byte-exactly
//                       warning (error when strict) several match, one of them byte-exactly
//   script-not-found    error   no server function of that qualified name
//   script-signature    error   no overload with the exact expected type (§5.4)
//   script-attribute    error   the matching function lacks [[ItemStatic]] / [[ItemTrigger]]
// Values are checked where they are written: a placement's own key at its line; a value the
// placement inherits from its prototype once per (map, prototype, property) at the first such
// placement, naming the prototype's file and the number of placements sharing it. Map header
// keys are checked too. Array properties (`AmbientSound = "a" "b"`) check every element.
#include <string>
#include <vector>

#include "sortie/fomap/lint.hpp"
#include "sortie/fomap/resource_index.hpp"
#include "sortie/fomap/script_index.hpp"

namespace sortie::fomap {

// Adds the reference findings of map `m` of `container` to `report` (a no-op when neither
// index is given). Called by lint_container for every map.
void check_map_references(const MapContainer& container, const MapDefinition& m, const Project& project,
                          const LintOptions& options, LintReport& report);

std::vector<SkippedCheck> skipped_reference_checks(const LintOptions& options);

}  // namespace sortie::fomap
