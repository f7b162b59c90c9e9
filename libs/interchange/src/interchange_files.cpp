#include "sortie/interchange/interchange_files.hpp"

#include <fmt/format.h>

#include <chrono>

#include "sortie/assets/visual_store.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/interchange/texture_png.hpp"
#include "sortie/iron3d/archive.hpp"
#include "sortie/iron3d/ctld.hpp"

namespace sortie::interchange {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

core::Result<GltfExportOptions> output_options(const std::filesystem::path& out) {
  GltfExportOptions o;
  const std::string ext = out.extension().string();
  if (ext == ".glb" || ext == ".GLB") {
    o.binary = true;
  } else if (ext == ".gltf" || ext == ".GLTF") {
    o.binary = false;
  } else {
    return core::fail(core::Diagnostic::error("export.out", "the output must end in .glb or .gltf")
                          .of(out.string())
                          .expect(".glb or .gltf", ext.empty() ? std::string("no extension") : ext));
  }
  o.name = out.stem().string();
  return o;
}

core::Status write_all(const std::filesystem::path& dir, const std::vector<GltfFile>& files, WrittenFiles& written) {
  for (const auto& f : files) {
    const auto path = dir / f.name;
    SORTIE_CHECK(core::write_file_atomic(path, core::ByteView(f.bytes)));
    written.files.push_back(path);
    written.bytes += f.bytes.size();
  }
  return {};
}

std::string files_text(const WrittenFiles& w) {
  std::string out;
  for (const auto& f : w.files) out += fmt::format("  wrote {}\n", f.string());
  return out;
}

core::Json files_json(const WrittenFiles& w) {
  core::Json files = core::Json::array();
  for (const auto& f : w.files) files.push_back(f.string());
  return {{"files", std::move(files)}, {"bytes", w.bytes}, {"milliseconds", w.milliseconds}};
}

core::Result<ExportReport> finish_export(const std::string& what, const GltfExport& exported,
                                         const std::filesystem::path& out, Clock::time_point t0) {
  ExportReport report;
  report.what = what;
  report.stats = exported.stats;
  SORTIE_CHECK(write_all(out.parent_path(), exported.files, report.written));
  report.written.milliseconds = since(t0);
  return report;
}

}  // namespace

core::Json ExportReport::to_json() const {
  return {{"source", what}, {"written", files_json(written)}, {"stats", stats.to_json()}};
}

std::string ExportReport::to_text() const {
  return fmt::format(
      "exported {}: {} nodes, {} meshes ({} primitives, {} triangles, {} vertices), {} materials, {} textures; {} "
      "bytes in {:.1f} ms\n{}",
      what, stats.nodes, stats.meshes, stats.primitives, stats.triangles, stats.vertices, stats.materials,
      stats.textures, written.bytes, written.milliseconds, files_text(written));
}

core::Result<ExportReport> export_model_file(const ModelExportRequest& rq) {
  SORTIE_TRY(auto options, output_options(rq.out));
  options.rest_pose = rq.rest_pose;
  options.textures = rq.textures;
  options.frame = rq.frame;
  if (!rq.ctl.empty()) {
    SORTIE_TRY(const auto bytes, core::read_file(rq.ctl));
    iron3d::ReadOptions ro;
    ro.file_name = rq.ctl.string();
    auto ctld = iron3d::read_ctld(core::ByteView(bytes), ro);
    if (!ctld) return core::fail(std::move(ctld.error()).of(rq.ctl.string()));
    for (const auto& n : iron3d::evaluate_ctld_pose(*ctld).nodes) options.node_frames[n.node_id] = n.frame;
  }
  SORTIE_TRY(auto game, mission::open_game(rq.source, {}));
  const auto t0 = Clock::now();
  assets::VisualCache cache;
  assets::VisualStoreOptions vo;
  vo.profile = game.context.options().profile;
  SORTIE_TRY(auto store, assets::prepare_model(game.context.repository(), cache, rq.resource, vo));
  SORTIE_TRY(const auto exported, export_model_gltf(*store, options));
  return finish_export(rq.resource, exported, rq.out, t0);
}

core::Result<ExportReport> export_mission_file(const MissionExportRequest& rq) {
  SORTIE_TRY(auto options, output_options(rq.out));
  options.rest_pose = rq.rest_pose;
  options.textures = rq.textures;
  options.areals = rq.areals;
  options.frame = rq.frame;
  options.routes = rq.routes;
  SORTIE_TRY(auto game, mission::open_game(rq.source, rq.mission));
  const auto t0 = Clock::now();
  SORTIE_TRY(const auto md, game.context.prepare(game.mission));
  assets::VisualCache cache;
  assets::VisualStoreOptions vo;
  vo.profile = game.context.options().profile;
  SORTIE_TRY(auto store, assets::build_visual_store(game.context.repository(), cache, md, vo));
  SORTIE_TRY(const auto exported, export_mission_gltf(*store, md, options));
  return finish_export(game.mission, exported, rq.out, t0);
}

core::Json ImportReport::to_json() const {
  core::Json textures = core::Json::array(), materials = core::Json::array();
  for (const auto& t : entries.textures) textures.push_back(t.name);
  for (const auto& m : entries.materials) materials.push_back(m.name);
  return {{"model", model.to_json()},          {"prototype", entries.name},
          {"archive", entries.archive},        {"resource_name", entries.resource_name},
          {"materials", std::move(materials)}, {"textures", std::move(textures)},
          {"written", files_json(written)}};
}

std::string ImportReport::to_text() const {
  return fmt::format(
      "imported {} vertices, {} triangles, {} materials as '{}' ({}: {}.msh, {}.wea; {} MAT0, {} Texm; "
      "objects.rlb '{}'); place it in data.tma as {}\n{}",
      model.positions.size(), model.triangles, model.materials.size(), entries.name, entries.archive, entries.name,
      entries.name, entries.materials.size(), entries.textures.size(), entries.name, entries.resource_name,
      files_text(written));
}

core::Result<ImportReport> import_model_file(const ModelImportRequest& rq) {
  const auto t0 = Clock::now();
  SORTIE_TRY(const auto bytes, core::read_file(rq.input, rq.limits.max_file_bytes));
  GltfSource source{core::ByteView(bytes), rq.input.parent_path().empty() ? "." : rq.input.parent_path()};
  ImportReport report;
  auto model = read_gltf_model(source, rq.limits);
  if (!model) return core::fail(std::move(model.error()).of(rq.input.string()));
  report.model = std::move(*model);
  SORTIE_TRY(report.entries, build_model_entries(report.model, rq.name, rq.archive));
  if (!rq.dry_run) {
    std::error_code ec;
    if (!std::filesystem::is_directory(rq.game_dir, ec))
      return core::fail(
          core::Diagnostic::error("io.not_a_directory", "the game directory does not exist").of(rq.game_dir.string()));
    SORTIE_CHECK(install_model(rq.game_dir, report.entries));
    for (const auto& f : {rq.archive, std::string("material.lib"), std::string("textures.lib"),
                          std::string("objects.rlb"), report.entries.unit_dat_path})
      report.written.files.push_back(rq.game_dir / f);
  }
  report.written.milliseconds = since(t0);
  return report;
}

core::Result<WrittenFiles> export_texture_file(const TextureExportRequest& rq) {
  const auto t0 = Clock::now();
  SORTIE_TRY(const auto bytes, core::read_file(rq.input));
  core::Bytes payload;
  if (iron3d::detect_archive(core::ByteView(bytes))) {
    SORTIE_TRY(auto archive, iron3d::Archive::open(core::SharedBytes(core::Bytes(bytes)),
                                                   {core::Profile::strict, rq.input.string()}));
    const auto index = archive.find(rq.entry);
    if (rq.entry.empty() || !index)
      return core::fail(core::Diagnostic::error("archive.entry_not_found", "name the Texm entry of the archive")
                            .of(rq.input.string())
                            .expect("an entry name", rq.entry.empty() ? std::string("none given") : rq.entry));
    SORTIE_TRY(const auto view, archive.payload(*index));
    payload.assign(view.begin(), view.end());
  } else {
    payload = bytes;
  }
  iron3d::ReadOptions ro;
  ro.file_name = rq.input.string();
  auto texm = iron3d::read_texm(core::ByteView(payload), ro);
  if (!texm) return core::fail(std::move(texm.error()));
  SORTIE_TRY(const auto pngs, export_texture_png(*texm, rq.levels));
  WrittenFiles written;
  for (std::size_t level = 0; level < pngs.size(); ++level) {
    std::filesystem::path path = rq.out;
    if (level > 0) path.replace_filename(fmt::format("{}.{}.png", rq.out.stem().string(), level));
    SORTIE_CHECK(core::write_file_atomic(path, core::ByteView(pngs[level])));
    written.files.push_back(path);
    written.bytes += pngs[level].size();
  }
  written.milliseconds = since(t0);
  return written;
}

core::Result<WrittenFiles> import_texture_file(const TextureImportRequest& rq) {
  const auto t0 = Clock::now();
  std::vector<core::Bytes> files;
  std::vector<core::ByteView> views;
  for (const auto& p : rq.inputs) {
    SORTIE_TRY(auto bytes, core::read_file(p));
    files.push_back(std::move(bytes));
  }
  for (const auto& f : files) views.emplace_back(f);
  TextureImportOptions options;
  options.format = rq.format;
  options.mips = rq.mips;
  auto texm = import_texture_png(views, options);
  if (!texm) return core::fail(std::move(texm.error()).of(rq.inputs.empty() ? std::string() : rq.inputs[0].string()));
  const core::Bytes out = iron3d::write_texm(*texm);
  SORTIE_CHECK(core::write_file_atomic(rq.out, core::ByteView(out)));
  WrittenFiles written;
  written.files.push_back(rq.out);
  written.bytes = out.size();
  written.milliseconds = since(t0);
  return written;
}

}  // namespace sortie::interchange
