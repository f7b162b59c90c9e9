#pragma once
// Lint (spec/fomap.md §8): engine-compatible checks and the strict gate (§8.3). Every finding
// carries a stable rule ID of §8.2 (`map-format.rule.*`), a file:line, a message naming the
// placement ($Id, $Proto) and the fix.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/project.hpp"

namespace sortie::fomap {

// Stable rule IDs (§8.2).
namespace rule {
inline constexpr std::string_view kConfigSyntax = "map-format.rule.config-syntax";
inline constexpr std::string_view kClosedSectionSet = "map-format.rule.closed-section-set";
inline constexpr std::string_view kMapIdentity = "map-format.rule.map-identity";
inline constexpr std::string_view kSharedPlacementIds = "map-format.rule.shared-placement-ids";
inline constexpr std::string_view kPrototypeResolution = "map-format.rule.prototype-resolution";
inline constexpr std::string_view kPropertyOverrides = "map-format.rule.property-overrides";
inline constexpr std::string_view kNormalizedOrder = "map-format.rule.normalized-order";
inline constexpr std::string_view kOwnershipReferences = "map-format.rule.ownership-references";
inline constexpr std::string_view kStaticItems = "map-format.rule.static-items";
inline constexpr std::string_view kBounds = "map-format.rule.bounds";
inline constexpr std::string_view kSideSpecificBake = "map-format.rule.side-specific-bake";
inline constexpr std::string_view kHiddenStaticItems = "map-format.rule.hidden-static-items";
inline constexpr std::string_view kRuntimeMaterialization = "map-format.rule.runtime-materialization";
inline constexpr std::string_view kMapperRoundTrip = "map-format.rule.mapper-round-trip";
inline constexpr std::string_view kMultihexMesh = "map-format.rule.multihex-mesh";
inline constexpr std::string_view kErrorAggregation = "map-format.rule.error-aggregation";
}  // namespace rule

struct Finding {
  std::string rule;   // one of rule::k*
  std::string check;  // finer stable sub-id, e.g. "id-duplicate", "hex-out-of-bounds"
  core::Severity severity = core::Severity::error;
  std::string file;
  std::uint32_t line = 0;
  std::string map;        // map name ("" for file-level findings)
  std::string placement;  // "Item $Id=12 $Proto=Wall" ("" when not about a placement)
  std::string message;    // what is wrong
  std::string fix;        // how to fix it

  // "file:line: error: [rule] message (Item $Id=12 $Proto=Wall); fix: ..."
  [[nodiscard]] std::string to_string() const;
  [[nodiscard]] core::Json to_json() const;
};

class ResourceIndex;
class ScriptIndex;

struct LintOptions {
  // false: engine-compatible (only what makes the engine fail is an error; what it repairs or
  // ignores is a warning). true: the strict gate of §8.3 (all of those are errors).
  bool strict = false;
  // Opt-in reference checks (references.hpp); nullptr = not checked.
  const ResourceIndex* resources = nullptr;
  const ScriptIndex* scripts = nullptr;
};

struct LintReport {
  std::vector<Finding> findings;  // sorted by file, line, rule
  std::size_t files = 0;
  std::size_t maps = 0;
  std::size_t placements = 0;
  [[nodiscard]] std::size_t errors() const;
  [[nodiscard]] std::size_t warnings() const;
  // "N files, M maps, P placements: E errors, W warnings"
  [[nodiscard]] std::string summary() const;
  [[nodiscard]] core::Json to_json() const;
  void merge(LintReport other);
};

LintReport lint_container(const MapContainer& container, const Project& project, const LintOptions& options);

// What a lint run with these inputs leaves unchecked, so a report can say so: "prototypes"
// without protos ($Proto names, inherited values, project properties), "resources" and
// "scripts" without their indexes (references.hpp).
struct SkippedCheck {
  std::string check;   // "prototypes", "resources", "scripts"
  std::string reason;  // "no --protos"
};
std::vector<SkippedCheck> skipped_checks(const Project& project, const LintOptions& options);

// Pack-wide map identity (§8.3): the same map name declared by two files bakes one proto twice
// ("Proto already loaded"). Feed every linted container's declared names; findings are
// `map-format.rule.map-identity` / `duplicate-name-in-pack` errors on the later declarations.
struct DeclaredMap {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
};
std::vector<DeclaredMap> declared_maps(const MapContainer& container);
LintReport lint_pack_identity(const std::vector<DeclaredMap>& maps);

}  // namespace sortie::fomap
