#pragma once
// Assembles a synthetic Iron3D game directory in memory with sortie's own writers: archives
// (NRes or RsLi), models with their WEAR tables, materials, textures, lightmaps, the
// objects.rlb registry and unit DATs. Used by the sample generator and by tests (which then
// remove or corrupt single pieces to inject faults).
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "sortie/assets/vfs.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/fxid.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::assets {

enum class ArchiveFormat : std::uint8_t { nres, rsli };

struct ModelSpec {
  std::string archive;                                // e.g. "static.rlb"
  std::string name;                                   // e.g. "s_tree_0_04.msh"
  std::vector<std::string> materials;                 // WEAR rows (material names)
  std::vector<std::string> lightmaps;                 // WEAR LIGHTMAPS rows
  float half_x = 1.0f, half_y = 1.0f, half_z = 1.0f;  // box geometry
  iron3d::MshBuildInput shape{};                      // when it has positions: this geometry instead of the box
};

struct PrototypeRef {
  std::string archive;   // "objects.rlb" names a parent prototype
  std::string resource;  // a model ("x.msh"), a parent key, or any other resource (".bas", ...)
};

// Writes game files (game path -> bytes) below `dir`, creating folders; each file atomically.
core::Status write_game_files(const std::filesystem::path& dir, const std::map<std::string, core::Bytes>& files);

class GameBuilder {
 public:
  explicit GameBuilder(ArchiveFormat objects_format = ArchiveFormat::rsli) : objects_format_(objects_format) {}

  // Raw pieces.
  void add_file(std::string path, core::Bytes bytes);
  void add_nres_entry(std::string archive, iron3d::NresEntrySpec spec);

  // Resources. Texture formats follow Texm codes (565, 4444, 8888, 888, 0).
  core::Status add_texture(std::string name, std::uint32_t width, std::uint32_t height, std::uint32_t format,
                           std::uint32_t mips, std::uint32_t seed);
  // The same with the texels `pixel` gives (iron3d::build_texm).
  core::Status add_texture(std::string name, std::uint32_t width, std::uint32_t height, std::uint32_t format,
                           std::uint32_t mips, iron3d::TexmPixelFn pixel);
  core::Status add_lightmap(std::string name, std::uint32_t width, std::uint32_t height, std::uint32_t seed);
  // The same with the texels `pixel` gives (iron3d::build_lightmap: 565, one level).
  core::Status add_lightmap(std::string name, std::uint32_t width, std::uint32_t height, iron3d::TexmPixelFn pixel);
  core::Status add_material(std::string name, const std::vector<std::string>& textures, bool animated = false);
  core::Status add_model(const ModelSpec& model);
  // An FXID effect (NRes entry type FXID, attr3 = 1 as in the corpus; spec §19.1).
  void add_effect(std::string name, const iron3d::Fxid& fx, std::string archive = "effects.rlb");
  void add_prototype(std::string key, std::vector<PrototypeRef> refs);
  core::Status add_unit_dat(std::string path, const std::vector<std::string>& component_keys);

  // Every file of the game (archives encoded), by game path.
  [[nodiscard]] core::Result<std::map<std::string, core::Bytes>> build() const;
  core::Status write_to(const std::filesystem::path& dir) const;
  core::Status fill(MemoryVfs& vfs) const;

  [[nodiscard]] std::size_t prototype_count() const { return prototypes_.size(); }

 private:
  ArchiveFormat objects_format_;
  std::map<std::string, core::Bytes> files_;
  std::map<std::string, std::vector<iron3d::NresEntrySpec>> nres_;  // archive -> entries (insertion order)
  std::vector<std::pair<std::string, std::vector<PrototypeRef>>> prototypes_;
};

}  // namespace sortie::assets
