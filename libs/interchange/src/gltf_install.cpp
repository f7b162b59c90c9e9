// build_model_entries and install_model (gltf_import.hpp): an imported model as Iron3D entries,
// and those entries written into a game directory.
#include <fmt/format.h>

#include <algorithm>

#include "sortie/assets/game_path.hpp"
#include "sortie/assets/prepared_visual.hpp"
#include "sortie/assets/vfs.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/mapped_file.hpp"
#include "sortie/interchange/gltf_import.hpp"
#include "sortie/interchange/limits.hpp"
#include "sortie/interchange/texture_png.hpp"
#include "sortie/iron3d/archive.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::interchange {
namespace {

bool valid_name(const std::string& name) {
  return !name.empty() && name.size() <= 10 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

core::Result<ModelEntries::Named> material_entry(const ImportedMaterial& mat, const std::string& name,
                                                 const std::string& texture) {
  iron3d::Mat0 m;
  if (mat.mat0) {
    m = *mat.mat0;
    for (auto& phase : m.phases)  // a textured phase of the exported MAT0 names the imported texture
      if (!phase.texture_name.text().empty()) phase.texture_name = core::FixedString::make(texture, 16);
  } else {
    SORTIE_TRY(m, iron3d::build_mat0({texture}));
  }
  return ModelEntries::Named{name, iron3d::write_mat0(m), mat.mat0 ? mat.mat0_flags : 0u, m.version};
}

}  // namespace

core::Result<ModelEntries> build_model_entries(const ImportedModel& model, const std::string& name,
                                               const std::string& archive) {
  if (!valid_name(name))
    return core::fail(core::Diagnostic::error("gltf.name",
                                              "a model name is 1..10 of A-Z a-z 0-9 _ (texture names "
                                              "NAME_t<row> must fit 16 bytes)")
                          .expect("[A-Za-z0-9_]{1,10}", fmt::format("'{}'", name)));
  if (model.materials.size() > kInstallMaterialsMax)
    return core::fail(
        core::Diagnostic::error("gltf.limit", fmt::format("more than {} materials", kInstallMaterialsMax))
            .expect(fmt::format("<= {}", kInstallMaterialsMax), fmt::format("{}", model.materials.size())));
  ModelEntries out;
  out.name = name;
  out.archive = archive;
  iron3d::MshBuildInput in;
  in.positions = model.positions;
  in.normals = model.normals;
  in.uvs = model.uvs;
  in.indices = model.indices;
  in.batches = model.batches;
  in.node_name = name;
  SORTIE_TRY(const auto msh, iron3d::build_msh_model(in));
  SORTIE_TRY(out.msh, iron3d::write_msh_canonical(msh));
  std::vector<std::string> rows;
  for (std::size_t row = 0; row < model.materials.size(); ++row) {
    const auto& mat = model.materials[row];
    const std::string mat_name = fmt::format("{}_{}", name, row);
    std::string texture;
    if (mat.base) {
      texture = fmt::format("{}_t{}", name, row);
      TextureImportOptions topt;
      topt.format = mat.texture_format;
      if (mat.texture_levels != 0) topt.mips = mat.texture_levels;
      SORTIE_TRY(auto texm, texm_from_rgba8(std::span(&*mat.base, 1), nullptr, topt));
      out.textures.push_back({texture, iron3d::write_texm(texm)});
    }
    SORTIE_TRY(auto entry, material_entry(mat, mat_name, texture));
    out.materials.push_back(std::move(entry));
    rows.push_back(mat_name);
  }
  SORTIE_TRY(const auto wear, iron3d::build_wear(rows));
  out.wear = iron3d::write_wear(wear);
  SORTIE_TRY(const auto dat, iron3d::build_unit_dat({{"objects.rlb", name, "imported"}}));
  out.unit_dat = iron3d::write_unit_dat(dat);
  out.unit_dat_path = fmt::format("UNITS/IMPORTED/{}.dat", name);
  out.resource_name = fmt::format("UNITS\\IMPORTED\\{}.dat", name);
  return out;
}

namespace {

struct PendingFile {
  std::filesystem::path path;
  core::Bytes bytes;
};

// The host path of a game path: the existing file (any case), else `dir / path` as given.
std::filesystem::path host_path(const assets::DirectoryVfs& vfs, const std::string& path) {
  if (auto gp = assets::normalize_path(path); gp)
    if (auto host = vfs.resolve(*gp); host) return *host;
  return vfs.root() / path;
}

// Adds (replacing same-named) entries to the archive at `host` (a new NRes when it is missing).
core::Result<core::Bytes> edit_archive(const std::filesystem::path& host,
                                       std::vector<iron3d::ArchiveNewEntry> entries) {
  std::error_code ec;
  if (!std::filesystem::exists(host, ec)) {
    std::vector<iron3d::NresEntrySpec> specs;
    for (auto& e : entries)
      specs.push_back({e.type_id.value_or(0), e.attr1, e.attr2, e.attr3, e.name, std::move(e.payload)});
    auto bytes = iron3d::build_nres(specs);
    if (!bytes) return core::fail(std::move(bytes.error()).of(host.string()));
    return bytes;
  }
  SORTIE_TRY(auto archive, iron3d::Archive::open_file(host));
  core::Bytes bytes;
  for (auto& e : entries) {
    e.replace = archive.find(e.name).has_value();
    auto edited = iron3d::add_archive_entry(archive, std::move(e));
    if (!edited) return core::fail(std::move(edited.error()).of(host.string()));
    bytes = std::move(*edited);
    SORTIE_TRY(archive,
               iron3d::Archive::open(core::SharedBytes(core::Bytes(bytes)), {core::Profile::strict, host.string()}));
  }
  return bytes;
}

}  // namespace

core::Status install_model(const std::filesystem::path& game_dir, const ModelEntries& e) {
  const assets::DirectoryVfs vfs(game_dir);
  std::vector<PendingFile> files;
  const auto stage = [&](const std::string& game_path, std::vector<iron3d::ArchiveNewEntry> entries) -> core::Status {
    const auto host = host_path(vfs, game_path);
    SORTIE_TRY(auto bytes, edit_archive(host, std::move(entries)));
    files.push_back({host, std::move(bytes)});
    return {};
  };
  const std::string msh_name = e.name + ".msh";
  SORTIE_CHECK(stage(e.archive, {{msh_name, e.msh, 0u, 0, 0, 0, std::nullopt, false},
                                 {iron3d::wear_name_for_msh(msh_name), e.wear, iron3d::nres_type_tag("WEAR"), 0, 0, 1,
                                  std::nullopt, false}}));
  std::vector<iron3d::ArchiveNewEntry> mats, texs;
  for (const auto& m : e.materials)
    mats.push_back({m.name, m.bytes, iron3d::nres_type_tag("MAT0"), m.attr1, m.attr2, 0, std::nullopt, false});
  for (const auto& t : e.textures)
    texs.push_back({t.name, t.bytes, iron3d::nres_type_tag("Texm"), 0, 0, 0, std::nullopt, false});
  SORTIE_CHECK(stage("material.lib", std::move(mats)));
  if (!texs.empty()) SORTIE_CHECK(stage("textures.lib", std::move(texs)));
  SORTIE_TRY(const auto ref, iron3d::make_object_ref(e.archive, msh_name));
  SORTIE_CHECK(stage("objects.rlb", {{e.name, iron3d::write_object_refs({ref}), std::nullopt, 0, 0, 0,
                                      iron3d::RsliMethod::lzss, false}}));
  files.push_back({vfs.root() / e.unit_dat_path, e.unit_dat});
  std::vector<core::FileWrite> writes;
  for (const auto& f : files) {
    std::error_code ec;
    std::filesystem::create_directories(f.path.parent_path(), ec);
    if (ec)
      return core::fail(core::Diagnostic::error("io.write", fmt::format("cannot create directory: {}", ec.message()))
                            .of(f.path.parent_path().string()));
    writes.push_back({f.path, core::ByteView(f.bytes)});
  }
  // All or nothing: a failure at any file puts the ones already replaced back.
  SORTIE_CHECK(core::write_files_together(writes));
  return {};
}

}  // namespace sortie::interchange
