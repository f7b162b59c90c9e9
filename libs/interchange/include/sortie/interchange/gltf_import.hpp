#pragma once
// glTF 2.0 models into Iron3D data (issue #20 part 2): the default scene's meshes, flattened
// into one MSH root node (node transforms applied, glTF's Y up turned back to Iron3D's Z up),
// one WEAR row and MAT0 per glTF material used, one Texm per base colour texture (mips
// box-filtered), a prototype in objects.rlb and a unit DAT, so a model made in Blender loads,
// renders and walks in a mission (docs/interchange.md).
//
// Everything is checked before it is used: sizes and counts against the bytes that hold them
// (an accessor's last element inside its buffer view, the view inside its buffer), indices
// against the vertex count, the format's limits (65,536 vertices, 65,535 triangles per slot,
// 16-byte texture names) with a diagnostic naming the part, and nothing is written unless the
// whole model converts.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/interchange/limits.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/texm.hpp"

namespace sortie::interchange {

struct GltfImportLimits {
  // Defaults and reasons: interchange/limits.hpp.
  std::uint64_t max_file_bytes = kGltfFileBytesMax;  // the .glb / .gltf and each external buffer
  std::uint32_t max_vertices = kGltfVerticesMax;     // MSH: u16 indices
  std::uint32_t max_triangles = kGltfTrianglesMax;   // MSH: one slot's u16 triangle count
  std::uint32_t max_materials = kGltfMaterialsMax;
  std::uint32_t max_texture_side = kGltfTextureSideMax;
  std::uint32_t max_nodes = kGltfNodesMax;
  std::uint32_t max_depth = kGltfDepthMax;  // node hierarchy
};

struct ImportedMaterial {
  std::string gltf_name;                   // the glTF material's name ("" when it has none)
  std::optional<iron3d::Rgba8Image> base;  // base colour texture, level 0
  std::uint32_t texture_format = 8888;     // extras.sortie.texture.format, else 8888 (lossless)
  std::uint32_t texture_levels = 0;        // extras.sortie.texture.levels, else 0 = full chain
  std::optional<iron3d::Mat0> mat0;        // extras.sortie.mat0 (phases, metadata), else built
  std::uint32_t mat0_flags = 0;            // the MAT0 entry's attr1
};

struct ImportedModel {
  std::vector<core::Vec3> positions;           // Iron3D space
  std::vector<core::Vec3> normals;             // unit, one per position
  std::vector<std::array<float, 2>> uvs;       // one per position, or empty
  std::vector<std::uint16_t> indices;          // triangle list, grouped by material
  std::vector<iron3d::MshBuildBatch> batches;  // one or more per material used, rows ascending
  std::vector<ImportedMaterial> materials;     // WEAR rows
  std::uint32_t triangles = 0;
  std::uint32_t source_primitives = 0;
  [[nodiscard]] core::Json to_json() const;
};

struct GltfSource {
  core::ByteView bytes;            // a .glb, or a .gltf's JSON text
  std::filesystem::path base_dir;  // where a .gltf's relative buffer files are (empty: none allowed)
};

// Codes: gltf.parse (tinygltf's reason: not glTF, truncated or garbled), gltf.limit (a count or
// size past GltfImportLimits), gltf.accessor (an accessor, view or buffer out of range, or of a
// type the attribute cannot have), gltf.primitive (a mode other than TRIANGLES, a missing
// POSITION, an index past the vertices), gltf.image (not a PNG, or a PNG that does not decode),
// gltf.node (a cycle or a hierarchy deeper than the limit), gltf.empty (no triangles).
core::Result<ImportedModel> read_gltf_model(const GltfSource& source, const GltfImportLimits& limits = {});

// The Iron3D entries of an imported model called `name` (1..10 of A-Z a-z 0-9 _): NAME.msh and
// NAME.wea for the model archive, NAME_<row> MAT0s, NAME_t<row> Texms, the objects.rlb
// prototype NAME and the unit DAT naming it. Code gltf.name for a bad name.
struct ModelEntries {
  std::string name;
  std::string archive;  // model archive (game path), e.g. "imported.lib"
  core::Bytes msh, wear;
  struct Named {
    std::string name;
    core::Bytes bytes;
    std::uint32_t attr1 = 0, attr2 = 0;
  };
  std::vector<Named> materials;  // material.lib (attr1 flags, attr2 version)
  std::vector<Named> textures;   // textures.lib
  core::Bytes unit_dat;
  std::string unit_dat_path;  // game path: UNITS/IMPORTED/NAME.dat
  std::string resource_name;  // what data.tma names: UNITS\IMPORTED\NAME.dat
};
core::Result<ModelEntries> build_model_entries(const ImportedModel& model, const std::string& name,
                                               const std::string& archive = "imported.lib");

// Writes the entries into the game directory: adds (or replaces) them in the model archive
// (created as NRes when missing), material.lib, textures.lib and objects.rlb, and writes the
// unit DAT. Every archive is edited in memory first; the files are then written as one set
// (core::write_files_together: a failure at any of them restores those already replaced).
// Errors archive.* / io.* with the path.
core::Status install_model(const std::filesystem::path& game_dir, const ModelEntries& entries);

}  // namespace sortie::interchange
