#include "sortie/assets/mission_data.hpp"

#include <fmt/format.h>

#include "sortie/core/text.hpp"

namespace sortie::assets {
namespace {

using Clock = std::chrono::steady_clock;

class PhaseTimer {
 public:
  PhaseTimer(std::vector<PhaseTiming>& out, std::string name, const ProgressFn& progress)
      : out_(out), name_(std::move(name)), start_(Clock::now()) {
    if (progress) progress(name_, 0, 0);
  }
  ~PhaseTimer() { out_.push_back({name_, std::chrono::duration<double, std::milli>(Clock::now() - start_).count()}); }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  std::vector<PhaseTiming>& out_;
  std::string name_;
  Clock::time_point start_;
};

}  // namespace

core::Result<GamePath> mission_tma_path(std::string_view mission) {
  if (mission.find('/') != std::string_view::npos || mission.find('\\') != std::string_view::npos ||
      core::iends_with_ascii(mission, ".tma"))
    return normalize_path(mission, PathPolicy::host_compatible);
  return normalize_path(fmt::format("MISSIONS/{}/data.tma", mission), PathPolicy::strict_legacy);
}

core::Result<GamePath> land_directory(std::string_view land_path) {
  SORTIE_TRY(auto p, normalize_path(land_path, PathPolicy::strict_legacy));
  if (p.parent().empty())
    return core::fail(core::Diagnostic::error("load.land_path", "land path has no directory part")
                          .expect("e.g. DATA\\MAPS\\<map>\\land", std::string(land_path)));
  return normalize_path(p.parent(), PathPolicy::strict_legacy);
}

core::Result<std::vector<std::string>> list_missions(const Vfs& vfs) {
  SORTIE_TRY(auto files, vfs.list("MISSIONS"));
  std::vector<std::string> out;
  for (const auto& f : files) {
    const auto segs = f.segments();
    if (segs.size() == 3 && core::iequals_ascii(segs[2], "data.tma")) out.emplace_back(segs[1]);
  }
  return out;
}

core::Result<MissionData> prepare_mission(ArchiveRepository& repo, PrototypeResolver& resolver,
                                          std::string_view mission, const MissionPrepareOptions& options) {
  MissionData md;
  const Vfs& vfs = repo.vfs();
  DependencyGraph& graph = md.graph;

  // Phase 1: mission context.
  core::Bytes tma_bytes;
  {
    PhaseTimer t(md.timings, "context", options.progress);
    SORTIE_TRY(md.tma_path, mission_tma_path(mission));
    auto bytes = vfs.read(md.tma_path);
    if (!bytes) {
      auto d = std::move(bytes.error());
      if (d.code == "vfs.not_found") {
        d.code = "load.mission_missing";
        d.message = fmt::format("mission '{}' not found ({})", mission, md.tma_path.path);
      }
      return core::fail(std::move(d));
    }
    tma_bytes = std::move(*bytes);
  }
  const std::uint32_t mission_node = graph.node(NodeKind::mission, md.tma_path.path);

  // Phase 3 (decoded first: the land path lives in data.tma).
  {
    PhaseTimer t(md.timings, "mission", options.progress);
    iron3d::TmaReadOptions to;
    to.profile = options.profile;
    to.file_name = md.tma_path.path;
    SORTIE_TRY(md.tma, iron3d::read_tma(tma_bytes, to, &graph.warnings));
    for (auto& d : iron3d::check_tma(md.tma, md.tma_path.path)) graph.warnings.push_back(std::move(d));
  }

  // Phase 2: world foundation.
  {
    PhaseTimer t(md.timings, "foundation", options.progress);
    auto dir = land_directory(md.tma.land_path);
    auto foundation_fail = [&](NodeKind kind, EdgeKind edge, std::string path, core::Diagnostic d, std::string code) {
      const auto to = graph.node(kind, path);
      d.code = std::move(code);
      d.message = fmt::format("{}: {} -> {}: {}", md.tma_path.path, to_string(edge), path, d.message);
      if (d.file.empty()) d.file = path;
      graph.fail(Edge{mission_node, to, edge, -1, -1, -1, std::nullopt}, std::move(d));
    };
    // One foundation file: a failed read or decode is a failed edge, a decoded one an edge.
    auto load = [&](NodeKind kind, EdgeKind edge, const std::string& path, std::string_view code, const auto& decode) {
      auto bytes = vfs.read(*normalize_path(path));
      if (!bytes) return foundation_fail(kind, edge, path, bytes.error(), fmt::format("{}_missing", code));
      if (core::Status st = decode(core::ByteView(*bytes)); !st)
        return foundation_fail(kind, edge, path, st.error(), fmt::format("{}_invalid", code));
      graph.add_edge(Edge{mission_node, graph.node(kind, path), edge, -1, -1, -1, std::nullopt});
    };
    if (!dir) {
      foundation_fail(NodeKind::land_msh, EdgeKind::mission_to_land_msh, md.tma.land_path, dir.error(),
                      "load.land_path");
    } else {
      md.land_dir = *dir;
      const std::string msh_path = dir->path + "/Land.msh";
      const std::string map_path = dir->path + "/Land.map";
      load(NodeKind::land_msh, EdgeKind::mission_to_land_msh, msh_path, "load.land_msh",
           [&](core::ByteView bytes) -> core::Status {
             SORTIE_TRY(md.land_msh,
                        iron3d::read_land_msh(bytes, iron3d::ReadOptions{options.profile, msh_path}, &graph.warnings));
             return {};
           });
      load(NodeKind::land_map, EdgeKind::mission_to_land_map, map_path, "load.land_map",
           [&](core::ByteView bytes) -> core::Status {
             SORTIE_TRY(md.land_map,
                        iron3d::read_land_map(bytes, iron3d::ReadOptions{options.profile, map_path}, &graph.warnings));
             return {};
           });
    }
    // The mission's own mission.cfg, when it has one (absent: no edge). Its failures are failed
    // edges like those of the other foundation files; the reader's code joins the message, since
    // the edge's code is load.mission_cfg_missing / load.mission_cfg_invalid.
    const std::string_view mission_dir = md.tma_path.parent();
    auto cfg_path =
        normalize_path(mission_dir.empty() ? std::string("mission.cfg") : fmt::format("{}/mission.cfg", mission_dir),
                       PathPolicy::host_compatible);
    if (cfg_path && vfs.exists(*cfg_path)) {
      md.mission_cfg_path = *cfg_path;
      const std::string& path = cfg_path->path;
      auto bytes = vfs.read(*cfg_path);
      auto cfg = bytes ? iron3d::read_mission_cfg(*bytes, iron3d::ReadOptions{options.profile, path}, &graph.warnings)
                       : core::Result<iron3d::MissionConfig>(iron3d::MissionConfig{});
      if (!bytes) {
        foundation_fail(NodeKind::mission_cfg, EdgeKind::mission_to_mission_cfg, path, bytes.error(),
                        "load.mission_cfg_missing");
      } else if (!cfg) {
        core::Diagnostic d = std::move(cfg.error());
        d.message = fmt::format("{} ({})", d.message, d.code);
        foundation_fail(NodeKind::mission_cfg, EdgeKind::mission_to_mission_cfg, path, std::move(d),
                        "load.mission_cfg_invalid");
      } else {
        md.mission_cfg = std::move(*cfg);
        graph.add_edge(Edge{mission_node, graph.node(NodeKind::mission_cfg, path), EdgeKind::mission_to_mission_cfg, -1,
                            -1, -1, std::nullopt});
      }
    }
    load(NodeKind::build_dat, EdgeKind::mission_to_build_dat, "BuildDat.lst", "load.build_dat",
         [&](core::ByteView bytes) -> core::Status {
           iron3d::BuildDatReadOptions bo;
           bo.profile = options.profile;
           SORTIE_TRY(md.build_dat, iron3d::read_build_dat(bytes, bo, &graph.warnings));
           for (auto& d : iron3d::check_build_dat(md.build_dat)) graph.warnings.push_back(std::move(d));
           return {};
         });
  }

  // The clans' native script bundles (after the foundation: a bundle's TRF names resolve through
  // the same registry as the placed objects).
  {
    PhaseTimer t(md.timings, "scripts", options.progress);
    md.scripts = load_script_bundles(repo, resolver, md.tma, md.tma_path.path, mission_node, graph, options.profile);
  }

  // Phases 4 + 5: prototype resolution and resource preparation (the resolver decodes and
  // validates every MSH, WEAR, MAT0 and Texm it reaches).
  {
    PhaseTimer t(md.timings, "prototypes", options.progress);
    std::vector<PlacedObjectRequest> requests;
    requests.reserve(md.tma.objects.size());
    for (std::size_t i = 0; i < md.tma.objects.size(); ++i)
      requests.push_back(
          {static_cast<std::int32_t>(i), md.tma.objects[i].resource_name, md.tma.objects[i].instance_name});
    md.objects = resolver.resolve(md.tma_path.path, mission_node, requests, graph);
    md.object_chain = graph.stats;
    md.object_chain.scope = fmt::format("{}: object chain", md.tma_path.path);
    if (options.progress) options.progress("prototypes", requests.size(), requests.size());
  }
  if (options.environment_wear && !md.land_dir.path.empty()) {
    PhaseTimer t(md.timings, "environment", options.progress);
    for (int layer = 1; layer <= 2; ++layer) {
      const std::string path = fmt::format("{}/Land{}.wea", md.land_dir.path, layer);
      auto p = normalize_path(path);
      if (!p || !vfs.exists(*p)) continue;
      auto bytes = vfs.read(*p);
      if (!bytes) continue;
      md.environment.push_back({layer, p->path, resolver.resolve_environment_wear(path, *bytes, graph, mission_node)});
    }
  }
  graph.stats.scope = fmt::format("{}: mission total (object chain + environment WEAR)", md.tma_path.path);
  return md;
}

}  // namespace sortie::assets
