#pragma once
// What `sortie export`, `sortie import` and `sortie texture` do, one call each: open the game or
// the file, convert, write the results atomically, report. The CLI parses options and prints.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "sortie/interchange/gltf_import.hpp"
#include "sortie/mission/open_game.hpp"

namespace sortie::interchange {

struct WrittenFiles {
  std::vector<std::filesystem::path> files;
  std::uint64_t bytes = 0;
  double milliseconds = 0;  // converting and writing
};

struct ExportReport {
  std::string what;  // the resource or mission
  WrittenFiles written;
  GltfExportStats stats;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;
};

struct ModelExportRequest {
  mission::GameSource source;
  std::string resource;       // a prototype key or a unit DAT path, as data.tma names it
  std::filesystem::path out;  // NAME.glb, or NAME.gltf (+ NAME.bin beside it)
  bool rest_pose = false;
  bool textures = true;
  std::optional<float> frame;  // every node at this animation time (GltfExportOptions::frame)
  // A CTLD (.ctl) file whose rows give per-node frames (iron3d::evaluate_ctld_pose; node id =
  // MSH node index). Which CTLD belongs to a prototype is not recovered, so the user names it.
  std::filesystem::path ctl;
};
// Errors: export.out (the output is neither .glb nor .gltf), the game's, visual.* of the model.
core::Result<ExportReport> export_model_file(const ModelExportRequest& request);

struct MissionExportRequest {
  mission::GameSource source;
  std::string mission;  // empty: the first one
  std::filesystem::path out;
  bool rest_pose = false;
  bool textures = true;
  bool areals = false;
  bool routes = false;
  std::optional<float> frame;
};
core::Result<ExportReport> export_mission_file(const MissionExportRequest& request);

struct ModelImportRequest {
  std::filesystem::path input;  // .glb or .gltf
  std::filesystem::path game_dir;
  std::string name;
  std::string archive = "imported.lib";
  bool dry_run = false;  // convert and check, write nothing
  GltfImportLimits limits;
};
struct ImportReport {
  ImportedModel model;
  ModelEntries entries;
  WrittenFiles written;
  [[nodiscard]] core::Json to_json() const;
  [[nodiscard]] std::string to_text() const;
};
core::Result<ImportReport> import_model_file(const ModelImportRequest& request);

struct TextureExportRequest {
  std::filesystem::path input;  // a Texm file, or an archive with `entry`
  std::string entry;
  std::filesystem::path out;  // level 0; level i goes to STEM.i.png beside it
  std::uint32_t levels = 1;   // 0 = every level
};
core::Result<WrittenFiles> export_texture_file(const TextureExportRequest& request);

struct TextureImportRequest {
  std::vector<std::filesystem::path> inputs;  // level 0 first
  std::filesystem::path out;                  // the Texm payload file
  std::optional<std::uint32_t> format;
  std::optional<std::uint32_t> mips;
};
core::Result<WrittenFiles> import_texture_file(const TextureImportRequest& request);

}  // namespace sortie::interchange
