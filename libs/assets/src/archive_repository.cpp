#include "sortie/assets/archive_repository.hpp"

#include <fmt/format.h>

#include "sortie/core/hash.hpp"
#include "sortie/iron3d/archive.hpp"

namespace sortie::assets {

std::string_view to_string(ArchiveKind kind) {
  return kind == ArchiveKind::nres ? "nres" : "rsli";
}

MountedArchive::MountedArchive(GamePath path, iron3d::NresArchive nres)
    : path_(std::move(path)), kind_(ArchiveKind::nres), archive_(std::move(nres)) {
  fingerprint_ = core::hash64(std::get<iron3d::NresArchive>(archive_).bytes());
}

MountedArchive::MountedArchive(GamePath path, iron3d::RsliArchive rsli)
    : path_(std::move(path)), kind_(ArchiveKind::rsli), archive_(std::move(rsli)) {
  fingerprint_ = core::hash64(std::get<iron3d::RsliArchive>(archive_).image);
}

std::size_t MountedArchive::size() const {
  return std::visit([](const auto& a) { return a.entries.size(); }, archive_);
}

std::optional<std::size_t> MountedArchive::find(std::string_view name) const {
  if (kind_ == ArchiveKind::nres) return std::get<iron3d::NresArchive>(archive_).find(name);
  return iron3d::find_rsli_entry(std::get<iron3d::RsliArchive>(archive_), name);
}

std::string MountedArchive::name(std::size_t index) const {
  return std::visit([&](const auto& a) { return std::string(a.entries.at(index).name.text()); }, archive_);
}

std::uint32_t MountedArchive::type_id(std::size_t index) const {
  if (kind_ != ArchiveKind::nres) return 0;
  return std::get<iron3d::NresArchive>(archive_).entries.at(index).type_id;
}

const iron3d::NresEntry* MountedArchive::nres_entry(std::size_t index) const {
  if (kind_ != ArchiveKind::nres) return nullptr;
  return &std::get<iron3d::NresArchive>(archive_).entries.at(index);
}

core::Result<core::ByteView> MountedArchive::payload(std::size_t index) const {
  if (kind_ == ArchiveKind::nres) return std::get<iron3d::NresArchive>(archive_).payload(index);
  std::lock_guard lock(mutex_);
  if (auto it = decoded_.find(index); it != decoded_.end()) return core::ByteView(it->second);
  auto bytes = iron3d::decode_rsli_entry(std::get<iron3d::RsliArchive>(archive_), index);
  if (!bytes) {
    auto d = bytes.error();
    d.file = fmt::format("{}:{}", path_.path, name(index));
    return core::fail(std::move(d));
  }
  auto [it, inserted] = decoded_.emplace(index, std::move(*bytes));
  return core::ByteView(it->second);
}

const core::Diagnostics& MountedArchive::warnings() const {
  return std::visit([](const auto& a) -> const core::Diagnostics& { return a.warnings; }, archive_);
}

core::Result<std::shared_ptr<const MountedArchive>> mount_archive(const GamePath& path, core::Bytes bytes) {
  const auto format = iron3d::detect_archive(bytes);
  if (format == iron3d::ArchiveFormat::nres) {
    iron3d::NresReadOptions o;
    o.profile = core::Profile::compatible;
    o.file_name = path.path;
    auto a = iron3d::read_nres(std::move(bytes), o);
    if (!a) return core::fail(std::move(a.error()));
    return std::make_shared<const MountedArchive>(path, std::move(*a));
  }
  if (format == iron3d::ArchiveFormat::rsli) {
    auto a = iron3d::read_rsli(bytes, iron3d::RsliReadOptions::from_profile(core::Profile::compatible, path.path));
    if (!a) return core::fail(std::move(a.error()));
    return std::make_shared<const MountedArchive>(path, std::move(*a));
  }
  return core::fail(core::Diagnostic::error("asset.archive_unsupported", "not an NRes or RsLi archive")
                        .of(path.path)
                        .at(0)
                        .expect("'NRes' or 'NL\\0\\x01'",
                                core::to_hex(core::ByteView(bytes).first(std::min<std::size_t>(4, bytes.size())))));
}

core::Result<std::shared_ptr<const MountedArchive>> ArchiveRepository::open(const GamePath& path) {
  if (auto it = open_.find(path.key); it != open_.end()) {
    ++stats_.archive_cache_hits;
    open_meta_[path.key].second = pass_;
    return it->second;
  }
  auto bytes = vfs_.read(path);
  if (!bytes) {
    auto d = std::move(bytes.error());
    if (d.code == "vfs.not_found") {
      d.code = "asset.archive_missing";
      d.message = "archive file not found";
    }
    return core::fail(std::move(d));
  }
  const auto size = bytes->size();
  SORTIE_TRY(auto mounted, mount_archive(path, std::move(*bytes)));
  ++stats_.archives_opened;
  stats_.archive_bytes += size;
  open_.emplace(path.key, mounted);
  open_meta_[path.key] = {size, pass_};
  return mounted;
}

CacheTrim ArchiveRepository::trim() {
  CacheTrim t;
  t.cache = "archives";
  t.entries_before = open_.size();
  for (auto it = open_.begin(); it != open_.end();) {
    const auto& [bytes, pass] = open_meta_[it->first];
    t.bytes_before += bytes;
    if (pass < pass_ && it->second.use_count() == 1) {
      open_meta_.erase(it->first);
      it = open_.erase(it);
      continue;
    }
    t.bytes_after += bytes;
    ++it;
  }
  t.entries_after = open_.size();
  ++pass_;
  return t;
}

std::vector<std::shared_ptr<const MountedArchive>> ArchiveRepository::opened() const {
  std::vector<std::shared_ptr<const MountedArchive>> out;
  out.reserve(open_.size());
  for (const auto& [key, a] : open_) out.push_back(a);
  return out;
}

void ArchiveRepository::clear() {
  open_.clear();
  open_meta_.clear();
}

}  // namespace sortie::assets
