#include "sortie/assets/game_builder.hpp"

#include <fmt/format.h>

#include "sortie/core/file_io.hpp"
#include "sortie/core/rng.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/unit_dat.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::assets {
namespace {

// Texture content: a seeded pattern (checker of two colours), deterministic per name.
thread_local std::uint32_t g_seed = 0;
iron3d::TexmColor pattern(std::uint32_t level, std::uint32_t x, std::uint32_t y) {
  const std::uint32_t s = g_seed;
  const bool odd =
      (((x >> (3 - std::min<std::uint32_t>(level, 3))) ^ (y >> (3 - std::min<std::uint32_t>(level, 3)))) & 1) != 0;
  const auto c = [&](std::uint32_t shift) {
    return static_cast<std::uint8_t>(((s >> shift) & 0x7F) + (odd ? 0x80 : 0x20));
  };
  return {c(0), c(8), c(16), 255};
}

}  // namespace

void GameBuilder::add_file(std::string path, core::Bytes bytes) {
  files_.insert_or_assign(std::move(path), std::move(bytes));
}

void GameBuilder::add_nres_entry(std::string archive, iron3d::NresEntrySpec spec) {
  nres_[std::move(archive)].push_back(std::move(spec));
}

core::Status GameBuilder::add_texture(std::string name, std::uint32_t width, std::uint32_t height, std::uint32_t format,
                                      std::uint32_t mips, std::uint32_t seed) {
  g_seed = seed;
  SORTIE_TRY(auto tex, iron3d::build_texm(width, height, format, mips, &pattern));
  add_nres_entry("textures.lib", iron3d::NresEntrySpec{iron3d::nres_type_tag("Texm"), 0, 0, 0, std::move(name),
                                                       iron3d::write_texm(tex)});
  return {};
}

core::Status GameBuilder::add_texture(std::string name, std::uint32_t width, std::uint32_t height, std::uint32_t format,
                                      std::uint32_t mips, iron3d::TexmPixelFn pixel) {
  SORTIE_TRY(auto tex, iron3d::build_texm(width, height, format, mips, pixel));
  add_nres_entry("textures.lib", iron3d::NresEntrySpec{iron3d::nres_type_tag("Texm"), 0, 0, 0, std::move(name),
                                                       iron3d::write_texm(tex)});
  return {};
}

core::Status GameBuilder::add_lightmap(std::string name, std::uint32_t width, std::uint32_t height,
                                       std::uint32_t seed) {
  g_seed = seed;
  SORTIE_TRY(auto tex, iron3d::build_lightmap(width, height, &pattern));
  add_nres_entry("lightmap.lib", iron3d::NresEntrySpec{iron3d::nres_type_tag("Texm"), 0, 0, 0, std::move(name),
                                                       iron3d::write_texm(tex)});
  return {};
}

core::Status GameBuilder::add_lightmap(std::string name, std::uint32_t width, std::uint32_t height,
                                       iron3d::TexmPixelFn pixel) {
  SORTIE_TRY(auto tex, iron3d::build_lightmap(width, height, pixel));
  add_nres_entry("lightmap.lib", iron3d::NresEntrySpec{iron3d::nres_type_tag("Texm"), 0, 0, 0, std::move(name),
                                                       iron3d::write_texm(tex)});
  return {};
}

core::Status GameBuilder::add_material(std::string name, const std::vector<std::string>& textures, bool animated) {
  SORTIE_TRY(auto mat, iron3d::build_mat0(textures, animated));
  add_nres_entry("material.lib", iron3d::NresEntrySpec{iron3d::nres_type_tag("MAT0"), 0, mat.version, 0,
                                                       std::move(name), iron3d::write_mat0(mat)});
  return {};
}

core::Status GameBuilder::add_model(const ModelSpec& model) {
  const auto rows = static_cast<std::uint16_t>(std::max<std::size_t>(1, model.materials.size()));
  SORTIE_TRY(auto msh,
             iron3d::build_msh_model(model.shape.positions.empty()
                                         ? iron3d::msh_box_input(model.half_x, model.half_y, model.half_z, rows)
                                         : model.shape));
  SORTIE_TRY(auto msh_bytes, iron3d::write_msh_canonical(msh));
  SORTIE_TRY(auto wear, iron3d::build_wear(model.materials, model.lightmaps));
  add_nres_entry(model.archive, iron3d::NresEntrySpec{0, 0, 0, 0, model.name, std::move(msh_bytes)});
  add_nres_entry(model.archive, iron3d::NresEntrySpec{iron3d::nres_type_tag("WEAR"), 0, 0, 1,
                                                      iron3d::wear_name_for_msh(model.name), iron3d::write_wear(wear)});
  return {};
}

void GameBuilder::add_effect(std::string name, const iron3d::Fxid& fx, std::string archive) {
  add_nres_entry(std::move(archive),
                 iron3d::NresEntrySpec{iron3d::kFxidTypeId, 0, 0, 1, std::move(name), iron3d::write_fxid(fx)});
}

void GameBuilder::add_prototype(std::string key, std::vector<PrototypeRef> refs) {
  prototypes_.emplace_back(std::move(key), std::move(refs));
}

core::Status GameBuilder::add_unit_dat(std::string path, const std::vector<std::string>& component_keys) {
  std::vector<iron3d::UnitComponentSpec> specs;
  specs.reserve(component_keys.size());
  for (const auto& k : component_keys) specs.push_back({"objects.rlb", k, "component"});
  SORTIE_TRY(auto dat, iron3d::build_unit_dat(specs));
  add_file(std::move(path), iron3d::write_unit_dat(dat));
  return {};
}

core::Result<std::map<std::string, core::Bytes>> GameBuilder::build() const {
  std::map<std::string, core::Bytes> out = files_;
  for (const auto& [archive, specs] : nres_) {
    auto bytes = iron3d::build_nres(specs);
    if (!bytes) return core::fail(std::move(bytes.error()).of(archive));
    out[archive] = std::move(*bytes);
  }
  if (!prototypes_.empty()) {
    std::vector<std::pair<std::string, core::Bytes>> payloads;
    for (const auto& [key, refs] : prototypes_) {
      std::vector<iron3d::ObjectRef> records;
      for (const auto& r : refs) {
        auto rec = iron3d::make_object_ref(r.archive, r.resource);
        if (!rec) return core::fail(std::move(rec.error()).of("objects.rlb"));
        records.push_back(std::move(*rec));
      }
      payloads.emplace_back(key, iron3d::write_object_refs(records));
    }
    if (objects_format_ == ArchiveFormat::rsli) {
      auto editor = iron3d::RsliEditor::create(0x5A17);
      for (auto& [key, payload] : payloads) SORTIE_CHECK(editor.add(key, payload, iron3d::RsliMethod::lzss));
      auto bytes = editor.write();
      if (!bytes) return core::fail(std::move(bytes.error()).of("objects.rlb"));
      out["objects.rlb"] = std::move(*bytes);
    } else {
      std::vector<iron3d::NresEntrySpec> specs;
      for (auto& [key, payload] : payloads) specs.push_back({0, 0, 0, 0, key, std::move(payload)});
      auto bytes = iron3d::build_nres(specs);
      if (!bytes) return core::fail(std::move(bytes.error()).of("objects.rlb"));
      out["objects.rlb"] = std::move(*bytes);
    }
  }
  return out;
}

core::Status write_game_files(const std::filesystem::path& dir, const std::map<std::string, core::Bytes>& files) {
  for (const auto& [path, bytes] : files) {
    const std::filesystem::path host = dir / path;
    std::error_code ec;
    std::filesystem::create_directories(host.parent_path(), ec);
    if (ec)
      return core::fail(core::Diagnostic::error("io.write", fmt::format("cannot create directory: {}", ec.message()))
                            .of(host.parent_path().string()));
    SORTIE_CHECK(core::write_file_atomic(host, bytes));
  }
  return {};
}

core::Status GameBuilder::write_to(const std::filesystem::path& dir) const {
  SORTIE_TRY(auto files, build());
  return write_game_files(dir, files);
}

core::Status GameBuilder::fill(MemoryVfs& vfs) const {
  SORTIE_TRY(auto files, build());
  for (auto& [path, bytes] : files) SORTIE_CHECK(vfs.add(path, std::move(bytes)));
  return {};
}

}  // namespace sortie::assets
