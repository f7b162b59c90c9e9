// Fuzzes the bundle loader and the native runtime over it: the input is split into a package,
// a varset, a TRF table and a formula export (each a u16 length then its bytes; the export takes
// the rest), mounted as MISSIONS/SCRIPTS/f.* for one clan, loaded in both profiles, and every
// loaded bundle's events are run (Init at start, then each event once). Nothing may crash; a
// failed edge always carries a diagnostic.
#include "sortie/assets/script_bundle.hpp"

#include <cstddef>
#include <cstdint>

#include "sortie/assets/mission_data.hpp"
#include "sortie/scenario/native_bundle.hpp"
#include "sortie/world/world.hpp"

namespace {

sortie::core::Bytes take(sortie::core::ByteView& in, bool rest) {
  std::size_t n = in.size();
  if (!rest) {
    n = in.size() >= 2 ? (static_cast<std::size_t>(in[0]) | (static_cast<std::size_t>(in[1]) << 8)) : 0;
    in = in.subspan(std::min<std::size_t>(2, in.size()));
    n = std::min(n, in.size());
  }
  sortie::core::Bytes out(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n));
  in = in.subspan(n);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  core::ByteView in(data, size);
  assets::MemoryVfs vfs;
  const char* const names[] = {"MISSIONS/SCRIPTS/f.scr", "MISSIONS/SCRIPTS/varset.var", "MISSIONS/SCRIPTS/f.trf",
                               "MISSIONS/SCRIPTS/f.fml"};
  for (int i = 0; i < 4; ++i)
    if (!vfs.add(names[i], take(in, i == 3))) return 0;
  auto md = std::make_shared<assets::MissionData>();
  md->tma.clans.push_back(
      iron3d::TmaClan::standard("F", 1, {12.5f, 7.0f}, "MISSIONS\\SCRIPTS\\f", 0, "MISSIONS\\SCRIPTS\\f.trf", 0));
  for (const auto profile : {core::Profile::strict, core::Profile::compatible}) {
    assets::ArchiveRepository repo(vfs);
    assets::PrototypeResolver resolver(repo);
    assets::DependencyGraph graph;
    const auto node = graph.node(assets::NodeKind::mission, "m");
    md->scripts = assets::load_script_bundles(repo, resolver, md->tma, "m", node, graph, profile);
    for (const auto& e : graph.edges())
      if (e.failure && *e.failure >= graph.failures().size()) __builtin_trap();
    if (!graph.ok() && graph.failures().empty()) __builtin_trap();
    if (md->scripts.empty()) continue;
    world::World world;
    scenario::MissionFacts facts;
    facts.data = md;
    std::vector<world::Event> events;
    scenario::ScenarioContext ctx{
        world, facts, 0, [](world::Command) -> core::Status { return {}; }, [](std::string_view, std::string) {},
        events};
    scenario::NativeBundlePart part(
        [](scenario::ScenarioContext&, scenario::Outcome, std::string) -> core::Status { return {}; });
    if (!part.start(ctx)) continue;
    for (const auto& ev : md->scripts[0].package.events) (void)part.raise(0, ev.name);
    (void)part.step(ctx);
    world::StateWriter out;
    part.encode(out);
  }
  return 0;
}
