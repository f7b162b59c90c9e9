#pragma once
// Pieces the prototype resolver's two halves share (internal to libs/assets):
//   prototype_resolver.cpp  placed object -> unit DAT -> registry key with its parents -> mesh
//   visual_chain.cpp        mesh -> WEAR -> MAT0 rows -> Texm textures and lightmaps
// A Failure is what a cache remembers of a broken reference (no provenance); a Walk turns it
// into a graph edge with the chain of the placed object being resolved.
#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "provenance.hpp"
#include "sortie/assets/prepared_effect.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/assets/stamped_map.hpp"

namespace sortie::assets::detail {

struct Failure {
  std::string code;
  std::string what;  // "objects.rlb: entry 'b_bunk' not found"
  std::string archive;
  std::string entry;
  std::string expected;
  std::string found;
};

// A failure caused by a diagnostic of a reader or the repository (its text is appended to `what`).
Failure failure_from(const core::Diagnostic& d, std::string code, std::string what, std::string archive,
                     std::string entry);

// Opens an archive by a name found in data (NUL-cut and trimmed, then normalized by `policy`).
core::Result<std::shared_ptr<const MountedArchive>> open_named_archive(ArchiveRepository& repo, std::string_view name,
                                                                       PathPolicy policy);

// The placed object being resolved, and the graph its edges go to.
struct Walk {
  DependencyGraph& graph;
  std::string mission;
  std::int32_t placed_index = -1;  // -1: the map's environment WEAR, an effect
  std::string placed_name;
  std::string field;  // the diagnostics' field when placed_index < 0 ("" for the environment WEAR)

  [[nodiscard]] std::string chain(std::string_view tail) const;
  void fail(std::uint32_t from, NodeKind to_kind, EdgeKind kind, const Failure& f, std::string_view via,
            std::int32_t component, std::int32_t row = -1);
  void edge(std::uint32_t from, std::uint32_t to, EdgeKind kind, std::int32_t component, std::int32_t row = -1);
};

// A model's decoded MSH check and its WEAR rows.
struct MeshVisual {
  std::optional<Failure> mesh_failure;  // MSH did not decode
  std::optional<Failure> wear_failure;  // WEAR missing or invalid
  std::string wear_entry;
  std::vector<std::string> materials;  // WEAR row names
  std::vector<std::string> lightmaps;
};

// The visual chain of spec §14 with one cache per resource kind: every MSH, WEAR, MAT0 and Texm
// is opened and checked once per resolver, however many prototypes reach it.
class VisualChain {
 public:
  VisualChain(ArchiveRepository& repo, const ResolverOptions& options) : repo_(repo), options_(options) {}

  // The MSH entry checked, and the WEAR beside it (§2.3 name) read into rows.
  std::shared_ptr<const MeshVisual> mesh_visual(const std::string& archive, const std::string& entry);

  // Adds the edges of every WEAR row (materials and their textures, lightmaps) below `wear_node`,
  // and fills `rc` with the names they resolve to.
  // The maintenance pass: what was not looked up since the last one (stamped_map.hpp).
  std::size_t trim() {
    const auto unheld = [](const auto&) { return false; };
    return meshes_.trim(unheld) + materials_.trim(unheld) + textures_.trim(unheld);
  }
  [[nodiscard]] std::size_t size() const { return meshes_.size() + materials_.size() + textures_.size(); }

  void wear_rows(const MeshVisual& v, std::uint32_t wear_node, const std::string& via, std::int32_t component, Walk& w,
                 ResolvedComponent& rc, GraphStatistics& st);

  // One material slot below `from_node` (a WEAR row, an effect's body): the edge of `kind` to the
  // MAT0 that serves `name` (exact, DEFAULT or the first entry, with a load.material_fallback
  // warning) and its textures; appends the texture entries to `textures` when given. Returns the
  // MAT0 entry, or nullopt when the edge failed.
  std::optional<std::string> material_row(std::uint32_t from_node, EdgeKind kind, std::size_t row,
                                          const std::string& name, const std::string& via, std::int32_t component,
                                          Walk& w, GraphStatistics& st, std::vector<std::string>* textures = nullptr);

 private:
  struct MaterialInfo {
    std::optional<Failure> failure;
    std::string entry;      // resolved MAT0 entry name (exact, DEFAULT or first entry)
    bool fallback = false;  // the requested name was not found: DEFAULT or the first entry serves it
    std::vector<std::string> textures;
  };
  struct ResourceCheck {
    std::optional<Failure> failure;
    std::string entry;
  };

  std::shared_ptr<const MaterialInfo> material(const std::string& name);
  std::shared_ptr<const ResourceCheck> texture(const std::string& lib_name, const std::string& name, bool lightmap);

  ArchiveRepository& repo_;
  const ResolverOptions& options_;
  StampedMap<std::shared_ptr<const MeshVisual>> meshes_;       // folded archive|entry
  StampedMap<std::shared_ptr<const MaterialInfo>> materials_;  // folded name
  StampedMap<std::shared_ptr<const ResourceCheck>> textures_;  // folded lib|name
};

// FXID effects by name (effects.rlb or the named archive), read and prepared once per resolver.
struct EffectCheck {
  std::optional<Failure> failure;  // load.effect_missing / load.effect_invalid
  std::shared_ptr<const PreparedEffect> effect;
};
class EffectChain {
 public:
  EffectChain(ArchiveRepository& repo, const ResolverOptions& options) : repo_(repo), options_(options) {}
  std::shared_ptr<const EffectCheck> effect(const EffectRef& ref);
  // Effects are prepared resources a store may hold: one held outside is kept.
  std::size_t trim() {
    return effects_.trim([](const auto& e) { return e.use_count() > 1 || (e->effect && e->effect.use_count() > 1); });
  }
  [[nodiscard]] std::size_t size() const { return effects_.size(); }

 private:
  ArchiveRepository& repo_;
  const ResolverOptions& options_;
  StampedMap<std::shared_ptr<const EffectCheck>> effects_;  // EffectRef::key()
};

}  // namespace sortie::assets::detail
