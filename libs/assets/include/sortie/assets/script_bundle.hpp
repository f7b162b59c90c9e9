#pragma once
// The native script bundles of a mission (spec §20.1, §20.4, §22; seed 001 "SuperAI and mission
// scenarios"), loaded by prepare_mission as edges of the dependency graph. For every clan of
// data.tma whose first resource string is not empty (its script base, e.g.
// MISSIONS\SCRIPTS\enemy):
//
//   <base>.scr        the compiled package (no ".scr" added when the base ends in it); required
//   <stem>.var        its variable table, else the shared MISSIONS\SCRIPTS\varset.var (only when
//                     the personal file does not exist: a broken personal file is an error)
//   <stem>.fml        its formula export, when present (optional)
//   second resource   the clan's TRF table, when the string is not empty; every name in it is
//                     looked up as a prototype key through the shared PrototypeResolver
//
// (<stem> is the base with a final ".scr" or ".SCR" removed.) The package is validated: its
// handler count is the version contract (73; load.script_version, its own diagnostic), every
// dispatch selector is typed (an unknown one is kept and reported as load.script_selector, a
// warning: it is not a version problem), and every reference index must lie inside the bundle's
// varset (load.script_reference). docs/script-bundles.md has the rules and the codes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/dependency_graph.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/iron3d/fml.hpp"
#include "sortie/iron3d/scr.hpp"
#include "sortie/iron3d/tma.hpp"
#include "sortie/iron3d/trf.hpp"
#include "sortie/iron3d/varset.hpp"

namespace sortie::assets {

inline constexpr std::string_view kSharedVarsetPath = "MISSIONS/SCRIPTS/varset.var";

// One name of a clan's TRF table and what the registry answered.
struct TrfPrototype {
  std::string name;            // the table's entry name (trimmed)
  bool resolved = false;       // found as a prototype key (objects.rlb or a model archive)
  bool geometric = false;      // it has an effective mesh
  std::string registry_entry;  // objects.rlb entry name when found there
};

struct ScriptBundle {
  std::size_t clan_index = 0;  // position in data.tma's clan list (Handler(19)'s clan id)
  std::string clan_name;       // raw bytes
  std::string base;            // the first resource string, NUL-cut and trimmed
  std::string stem;            // base without a final ".scr"/".SCR"
  std::string scr_path;        // game path of the package
  iron3d::ScrPackage package;
  std::string varset_path;  // game path of the table used (personal or shared)
  bool shared_varset = false;
  std::shared_ptr<const iron3d::Varset> varset;  // one object per file, shared by the bundles using it
  std::string fml_path;                          // set when the formula export exists
  std::optional<iron3d::Fml> formulas;
  std::string trf_path;  // set when the clan names a TRF table
  std::optional<iron3d::TrfTable> trf;
  std::vector<TrfPrototype> trf_prototypes;  // one per TRF name, table order
};

// "<base>.scr" unless the base already ends in ".scr" (ASCII case-insensitive).
std::string script_package_name(std::string_view base);
// The base with a final ".scr" or ".SCR" removed (a mixed-case ".Scr" is kept: "x.Scr.var").
std::string script_stem(std::string_view base);

// Loads the bundle of every clan with a script base into `graph` (under `mission_node`).
// Never fails as a whole: every problem is a failed edge (strict) or a warning (compatible, for
// the version, selector and reference checks and the readers' own relaxations). A bundle whose
// package cannot be read is left out of the result.
std::vector<ScriptBundle> load_script_bundles(ArchiveRepository& repo, PrototypeResolver& resolver,
                                              const iron3d::Tma& tma, std::string_view mission_label,
                                              std::uint32_t mission_node, DependencyGraph& graph,
                                              core::Profile profile);

}  // namespace sortie::assets
