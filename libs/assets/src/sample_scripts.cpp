#include "sample_scripts.hpp"

#include <fmt/format.h>

#include "sortie/iron3d/fml.hpp"
#include "sortie/iron3d/scr.hpp"
#include "sortie/iron3d/trf.hpp"
#include "sortie/iron3d/varset.hpp"

namespace sortie::assets::detail {
namespace sample_scripts {  // named, not anonymous: unity batches must not see its helpers twice

using iron3d::ScrEvent;
using iron3d::ScrInstruction;
using iron3d::ScrPackage;

// The shared varset: declaration order is the index space the packages below refer to.
constexpr std::string_view kVarset =
    "// MISSIONS\\SCRIPTS\\varset.var of the sortie sample game (written by sortie)\r\n"
    "VAR(DWORD, NONE, 0);\r\n"                                                // 0
    "VAR(DWORD, ST_SOLVING, 1);\r\n"                                          // 1
    "VAR(DWORD, ST_SOLVED, 2);\r\n"                                           // 2
    "VAR(DWORD, TARGET_BY_LOGIC_ID, 0x0201);\r\n"                             // 3
    "VAR(DWORD, TARGET_BY_PLACE, 0x0202);\r\n"                                // 4
    "VAR(DWORD, dCurrentProblem, 0);\r\n"                                     // 5
    "VAR(DWORD, Convoy, 7);   // base of Convoy_Start / Convoy_Continue\r\n"  // 6
    "VAR(float, fPatrolRadius, 25.0, 0, 100);\r\n"                            // 7
    "VAR(float, fZero, 0.0);\r\n"                                             // 8
    "VAR(DWORD, ClanBaseX, 0);\r\n"                                           // 9
    "VAR(DWORD, ClanBaseY, 0);\r\n"                                           // 10
    "VAR(DWORD, ClanID, 0);\r\n"                                              // 11
    "STRING(SampleName, \"sortie sample\");\r\n";
enum Var : std::uint32_t {
  kNone = 0,
  kSolving = 1,
  kSolved = 2,
  kCurrentProblem = 5,
  kConvoy = 6,
  kPatrolRadius = 7,
  kZero = 8,
  kBaseX = 9,
  kBaseY = 10,
  kClanId = 11
};

ScrInstruction handler(std::uint32_t index, std::vector<std::uint32_t> refs) {
  ScrInstruction ins;
  ins.words = {index, 0, 0, 0, 0};
  ins.references = std::move(refs);
  return ins;
}
ScrInstruction sentinel() {
  return handler(iron3d::kScrSentinel, {});
}

// Init: Handler(19) writes the clan's anchor and index (spec §20.4), like the AutoDemo bundles.
ScrEvent init_event() {
  return ScrEvent{"Init", 0, {handler(19, {kBaseX, kBaseY, kClanId})}};
}

ScrPackage enemy_package() {
  ScrPackage p;
  p.events.push_back(init_event());
  // Mission: a sentinel record, then Handler(2) materialises the Convoy event record.
  p.events.push_back(ScrEvent{
      "Mission", 1, {sentinel(), handler(2, {kConvoy, kPatrolRadius, kSolving, kNone, kZero, kZero, kPatrolRadius})}});
  p.events.push_back(ScrEvent{"Convoy_Start", 2, {handler(8, {kSolving})}});
  p.events.push_back(ScrEvent{"Convoy_Continue", 3, {handler(8, {kSolved})}});
  // The host callback (0, 0, 1): mission complete. Raised by tests, never by the sample's run.
  p.events.push_back(ScrEvent{"Fort_Task_Complete", 4, {handler(30, {kNone, kSolving})}});
  return p;
}

ScrPackage player_package() {
  ScrPackage p;
  p.events.push_back(init_event());
  // The host callback (0, 0, 0): mission failed.
  p.events.push_back(ScrEvent{"Hero_Killed", 1, {handler(30, {kNone, kNone})}});
  return p;
}

ScrPackage spatial_package() {
  ScrPackage p;
  p.events.push_back(init_event());
  p.events.push_back(ScrEvent{"Problems0", 1, {handler(8, {kSolving}), sentinel()}});
  return p;
}

std::string formulas(std::string_view clan) {
  return fmt::format(
      "// {}.fml: formula export of the sortie sample (text; its grammar is not known)\r\n"
      "fPatrolRadius = 25.0\r\n"
      "ClanBaseX = ClanBaseX\r\n",
      clan);
}

}  // namespace sample_scripts

core::Result<std::map<std::string, core::Bytes>> sample_script_files(const std::vector<std::string>& trf_names) {
  using namespace sample_scripts;
  std::map<std::string, core::Bytes> out;
  // Read back through our reader: a sample with a varset our reader refuses is a bug here.
  SORTIE_TRY(auto vs, iron3d::read_varset(core::as_bytes(kVarset)));
  out.emplace("MISSIONS/SCRIPTS/varset.var", iron3d::write_varset(vs));
  const std::pair<std::string_view, ScrPackage> packages[] = {
      {"player", player_package()}, {"enemy", enemy_package()}, {"spatial", spatial_package()}};
  for (const auto& [name, package] : packages) {
    out.emplace(fmt::format("MISSIONS/SCRIPTS/{}.scr", name), iron3d::write_scr(package));
    const std::string text = formulas(name);
    SORTIE_TRY(auto fml, iron3d::read_fml(core::as_bytes(text)));
    out.emplace(fmt::format("MISSIONS/SCRIPTS/{}.fml", name), iron3d::write_fml(fml));
  }
  SORTIE_TRY(auto trf, iron3d::build_trf(trf_names));
  out.emplace("MISSIONS/SCRIPTS/enemy.trf", std::move(trf));
  return out;
}

}  // namespace sortie::assets::detail
