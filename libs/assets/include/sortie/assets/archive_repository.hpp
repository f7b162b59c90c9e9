#pragma once
// Archive mounts over a VFS (spec §2.4, §5): NRes or RsLi detected by magic and opened in the
// compatible profile (as the engine does), cached by path; payloads of NRes entries are views
// into the mounted image, RsLi entries are decoded once and cached.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sortie/assets/game_path.hpp"
#include "sortie/assets/vfs.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/rsli.hpp"

namespace sortie::assets {

enum class ArchiveKind : std::uint8_t { nres, rsli };
std::string_view to_string(ArchiveKind kind);

class MountedArchive {
 public:
  MountedArchive(GamePath path, iron3d::NresArchive nres);
  MountedArchive(GamePath path, iron3d::RsliArchive rsli);

  [[nodiscard]] const GamePath& path() const { return path_; }
  [[nodiscard]] ArchiveKind kind() const { return kind_; }
  [[nodiscard]] std::size_t size() const;
  [[nodiscard]] std::optional<std::size_t> find(std::string_view name) const;
  [[nodiscard]] std::string name(std::size_t index) const;
  // NRes directory type id; 0 for RsLi entries (they have none).
  [[nodiscard]] std::uint32_t type_id(std::size_t index) const;
  // Whether the entry can be of NRes type `type`: an NRes entry of that type, or any RsLi entry.
  [[nodiscard]] bool may_be_type(std::size_t index, std::uint32_t type) const {
    return kind_ != ArchiveKind::nres || type_id(index) == type;
  }
  [[nodiscard]] const iron3d::NresEntry* nres_entry(std::size_t index) const;
  // Entry payload: a view into the image (NRes) or the decoded bytes (RsLi, decoded once).
  // Diagnostic codes from the RsLi decoder, located at "<archive>:<entry>".
  core::Result<core::ByteView> payload(std::size_t index) const;
  // Warnings of the compatible profile (e.g. sort table fallbacks).
  [[nodiscard]] const core::Diagnostics& warnings() const;
  [[nodiscard]] std::uint64_t fingerprint() const { return fingerprint_; }

 private:
  GamePath path_;
  ArchiveKind kind_;
  std::variant<iron3d::NresArchive, iron3d::RsliArchive> archive_;
  std::uint64_t fingerprint_ = 0;
  mutable std::mutex mutex_;
  mutable std::map<std::size_t, core::Bytes> decoded_;  // RsLi only
};

struct RepositoryStats {
  std::size_t archives_opened = 0;
  std::size_t archive_cache_hits = 0;
  std::uint64_t archive_bytes = 0;
};

class ArchiveRepository {
 public:
  explicit ArchiveRepository(const Vfs& vfs) : vfs_(vfs) {}
  // Codes: asset.archive_missing (file absent), asset.archive_unsupported (no known magic),
  // the reader's own code (nres.*, rsli.*) for a broken archive; io.* for read failures.
  core::Result<std::shared_ptr<const MountedArchive>> open(const GamePath& path);
  [[nodiscard]] const RepositoryStats& stats() const { return stats_; }
  [[nodiscard]] const Vfs& vfs() const { return vfs_; }
  // Every archive opened so far, sorted by path key.
  [[nodiscard]] std::vector<std::shared_ptr<const MountedArchive>> opened() const;
  void clear();
  // The deep maintenance pass: drops the mounted archives nobody else holds and nobody opened
  // since the last trim (their images and decoded RsLi entries); a later open() mounts the file
  // again. Bytes: the archives' file sizes.
  CacheTrim trim();

 private:
  const Vfs& vfs_;
  std::map<std::string, std::shared_ptr<const MountedArchive>> open_;         // by path key
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> open_meta_;  // by path key: bytes, last pass
  std::uint64_t pass_ = 0;
  RepositoryStats stats_;
};

// Detects and reads an archive image (compatible profile).
core::Result<std::shared_ptr<const MountedArchive>> mount_archive(const GamePath& path, core::Bytes bytes);

}  // namespace sortie::assets
