#pragma once
// Virtual file systems over a game directory (spec §2.2): every path segment is resolved
// ASCII case-insensitively; two candidates that fold equal are an error even if one matches
// exactly; symbolic links are refused.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sortie/assets/cache_trim.hpp"
#include "sortie/assets/game_path.hpp"
#include "sortie/assets/stamped_map.hpp"
#include "sortie/core/bytes.hpp"

namespace sortie::assets {

// Diagnostic codes: vfs.not_found, vfs.ambiguous, vfs.symlink, vfs.not_a_file, io.*.
class Vfs {
 public:
  virtual ~Vfs() = default;
  virtual core::Result<core::Bytes> read(const GamePath& path) const = 0;
  virtual bool exists(const GamePath& path) const = 0;
  // Every file below `prefix` (or the file itself), sorted by key. Empty prefix lists all.
  virtual core::Result<std::vector<GamePath>> list(std::string_view prefix = {}) const = 0;
  // Human description of where `path` came from ("<root>/DATA/MAPS/x/Land.msh").
  virtual std::string describe(const GamePath& path) const = 0;
  // The maintenance pass over what the VFS caches (a directory's listings); nothing by default.
  virtual CacheTrim trim_cache() const { return CacheTrim{"vfs", 0, 0, 0, 0}; }
};

class DirectoryVfs final : public Vfs {
 public:
  explicit DirectoryVfs(std::filesystem::path root);
  core::Result<core::Bytes> read(const GamePath& path) const override;
  bool exists(const GamePath& path) const override;
  core::Result<std::vector<GamePath>> list(std::string_view prefix = {}) const override;
  std::string describe(const GamePath& path) const override;
  // The host path a game path resolves to (case-insensitive, unambiguous).
  core::Result<std::filesystem::path> resolve(const GamePath& path) const;
  [[nodiscard]] const std::filesystem::path& root() const { return root_; }
  // Drops the directory listings not used since the last trim (a later lookup lists the
  // directory again: a file added since is found then). Bytes: the names' characters.
  CacheTrim trim_cache() const override;

 private:
  struct DirListing {
    std::map<std::string, std::vector<std::string>> by_key;  // folded name -> actual names
  };
  core::Result<const DirListing*> listing(const std::filesystem::path& dir) const;
  std::filesystem::path root_;
  mutable std::mutex mutex_;
  mutable StampedMap<std::unique_ptr<DirListing>> cache_;
};

class MemoryVfs final : public Vfs {
 public:
  // Adds or replaces a file; the path is normalized with the host-compatible policy.
  core::Status add(std::string_view path, core::Bytes bytes);
  core::Result<core::Bytes> read(const GamePath& path) const override;
  bool exists(const GamePath& path) const override;
  core::Result<std::vector<GamePath>> list(std::string_view prefix = {}) const override;
  std::string describe(const GamePath& path) const override;

 private:
  std::map<std::string, std::pair<GamePath, core::Bytes>> files_;  // by key
};

}  // namespace sortie::assets
