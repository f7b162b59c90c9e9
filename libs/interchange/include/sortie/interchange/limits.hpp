#pragma once
// Every absolute limit of the interchange importers (issue #21 part 4): the glTF importer's
// defaults of GltfImportLimits, what one installed model may hold, and the PNG texture import's
// side (TextureImportOptions). The MSH numbers are the format's own (iron3d-formats.md: u16
// vertex indices, a slot's u16 triangle count); the others are ours. A limit an option overrides
// is that option's default here; tests/interchange/limits_test.cpp checks the defaults and feeds
// an override at a model's own count (accepted) and one below it (refused).
#include <cstdint>

namespace sortie::interchange {

// A .glb / .gltf and each external buffer: 256 MiB (core::kDefaultFileLimit; a model is a few
// MiB); gltf.limit, before the buffer is read.
inline constexpr std::uint64_t kGltfFileBytesMax = std::uint64_t{256} << 20;
// Vertices of one model: 65536, what an MSH's u16 indices address; gltf.accessor for one
// primitive's accessor, gltf.limit for the model.
inline constexpr std::uint32_t kGltfVerticesMax = 65536;
// Triangles of one model: 65535, one MSH slot's u16 triangle count; gltf.accessor / gltf.limit.
inline constexpr std::uint32_t kGltfTrianglesMax = 65535;
// Materials one model uses: 64 (a unit uses a handful); gltf.limit.
inline constexpr std::uint32_t kGltfMaterialsMax = 64;
// A base colour texture's side: 4096 (the largest Texm the game's renderer loads);
// gltf.image (the decoder's render.png.limit), from the PNG header before its pixels are
// allocated.
inline constexpr std::uint32_t kGltfTextureSideMax = 4096;
// Nodes of one glTF: 4096; gltf.limit, before the hierarchy is walked.
inline constexpr std::uint32_t kGltfNodesMax = 4096;
// Depth of the node hierarchy: 64 (the recursion-depth default of iron3d-formats.md §1.1);
// gltf.node.
inline constexpr std::uint32_t kGltfDepthMax = 64;
// Materials of a model written into the game's files: 99, two digits of row in the entry names
// NAME_<row> and NAME_t<row> (16-byte fields with a 10-byte NAME would hold four; 99 is the
// importer's number since it was written); gltf.limit. Reached only when kGltfMaterialsMax is
// overridden upwards.
inline constexpr std::uint32_t kInstallMaterialsMax = 99;
// Sides of a Texm the PNG texture import writes: 4096 (as kGltfTextureSideMax);
// render.png.limit.
inline constexpr std::uint32_t kTextureSideMax = 4096;

}  // namespace sortie::interchange
