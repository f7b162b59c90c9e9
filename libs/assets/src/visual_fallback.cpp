#include "sortie/assets/visual_fallback.hpp"

#include <charconv>
#include <map>
#include <string_view>

namespace sortie::assets {
namespace {

// "objects[12]..." -> 12 (the visual store names the placement in the field path).
std::optional<std::int32_t> placed_index_of(const core::Diagnostic& d) {
  constexpr std::string_view kPrefix = "objects[";
  const std::string_view f = d.field;
  if (f.rfind(kPrefix, 0) != 0) return std::nullopt;
  std::int32_t v = -1;
  const char* begin = f.data() + kPrefix.size();
  const auto [ptr, ec] = std::from_chars(begin, f.data() + f.size(), v);
  if (ec != std::errc() || ptr == begin || ptr == f.data() + f.size() || *ptr != ']' || v < 0) return std::nullopt;
  return v;
}

}  // namespace

core::Result<FallbackVisuals> prepare_visuals_allowing_missing(assets::ArchiveRepository& repo,
                                                               assets::VisualCache& cache,
                                                               const assets::MissionData& data,
                                                               const assets::VisualStoreOptions& options) {
  FallbackVisuals out;
  std::map<std::int32_t, std::string> failed;  // placed index -> first reason
  for (const auto& e : data.graph.edges()) {
    if (!e.failure || *e.failure >= data.graph.failures().size()) continue;
    const auto& d = data.graph.failures()[*e.failure];
    if (e.placed_index >= 0)
      failed.emplace(e.placed_index, d.to_string());
    else
      out.terrain_failures.push_back(d);
  }
  bool drop_environment = !out.terrain_failures.empty();
  // Each round removes at least one object or the WEAR layers, so this ends.
  for (std::size_t round = 0; round <= data.objects.size() + 1; ++round) {
    assets::MissionData md;
    md.tma_path = data.tma_path;
    md.land_dir = data.land_dir;
    md.tma = data.tma;
    md.tma.objects.clear();
    md.land_msh = data.land_msh;
    md.land_map = data.land_map;
    md.build_dat = data.build_dat;
    if (!drop_environment) md.environment = data.environment;
    for (std::size_t i = 0; i < data.objects.size(); ++i) {
      if (failed.count(data.objects[i].placed_index) != 0) continue;
      md.objects.push_back(data.objects[i]);
      if (i < data.tma.objects.size()) md.tma.objects.push_back(data.tma.objects[i]);
    }
    auto store = assets::build_visual_store(repo, cache, md, options);
    if (store) {
      out.store = std::move(*store);
      out.terrain_untextured = drop_environment;
      for (const auto& [index, reason] : failed) {
        MissingPlacement m;
        m.placed_index = index;
        m.reason = reason;
        if (index >= 0 && static_cast<std::size_t>(index) < data.tma.objects.size()) {
          const auto& o = data.tma.objects[static_cast<std::size_t>(index)];
          m.transform.position = o.position;
          m.transform.orientation = o.orientation;
          m.transform.scale = o.scale;
          m.name = o.resource_name;
        }
        out.missing.push_back(std::move(m));
      }
      return out;
    }
    if (auto index = placed_index_of(store.error()); index && failed.count(*index) == 0) {
      failed.emplace(*index, store.error().to_string());
    } else if (!drop_environment) {
      out.terrain_failures.push_back(store.error());
      drop_environment = true;
    } else {
      return core::fail(store.error());
    }
  }
  return core::fail(
      core::Diagnostic::error("render.scene.fallback", "missing assets did not settle").of(data.tma_path.path));
}

}  // namespace sortie::assets
