#include "sortie/assets/vfs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/core/file_io.hpp"
#include "sortie/core/text.hpp"

namespace sortie::assets {
namespace fs = std::filesystem;

DirectoryVfs::DirectoryVfs(fs::path root) : root_(std::move(root)) {}

core::Result<const DirectoryVfs::DirListing*> DirectoryVfs::listing(const fs::path& dir) const {
  std::lock_guard lock(mutex_);
  const std::string key = dir.string();
  if (auto it = cache_.find(key); it != cache_.end()) return it->second.get();
  auto l = std::make_unique<DirListing>();
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    l->by_key[core::ascii_upper(name)].push_back(name);
  }
  if (ec)
    return core::fail(
        core::Diagnostic::error("io.open", fmt::format("cannot list directory: {}", ec.message())).of(dir.string()));
  for (auto& [k, names] : l->by_key) std::sort(names.begin(), names.end());
  const DirListing* raw = l.get();
  cache_.emplace(key, std::move(l));
  return raw;
}

CacheTrim DirectoryVfs::trim_cache() const {
  std::lock_guard lock(mutex_);
  CacheTrim t;
  t.cache = "vfs.listings";
  t.entries_before = cache_.size();
  cache_.trim([](const auto&) { return false; },
              [](const std::unique_ptr<DirListing>& l) {
                std::uint64_t n = 0;
                for (const auto& [key, names] : l->by_key)
                  for (const auto& name : names) n += key.size() + name.size();
                return n;
              },
              t.bytes_before, t.bytes_after);
  t.entries_after = cache_.size();
  return t;
}

core::Result<fs::path> DirectoryVfs::resolve(const GamePath& path) const {
  fs::path cur = root_;
  const auto segs = path.segments();
  for (std::size_t i = 0; i < segs.size(); ++i) {
    SORTIE_TRY(const DirListing* l, listing(cur));
    const auto it = l->by_key.find(core::ascii_upper(segs[i]));
    if (it == l->by_key.end())
      return core::fail(core::Diagnostic::error("vfs.not_found", "file not found in the game directory")
                            .of(path.original)
                            .expect(fmt::format("'{}' inside {}", segs[i], cur.string()), "no such name (any case)"));
    if (it->second.size() > 1) {
      std::string names;
      for (const auto& n : it->second) names += (names.empty() ? "" : ", ") + n;
      return core::fail(core::Diagnostic::error("vfs.ambiguous", "several names differ only in case")
                            .of(path.original)
                            .expect("exactly one match", names));
    }
    cur /= it->second.front();
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(cur, ec)))
      return core::fail(
          core::Diagnostic::error("vfs.symlink", "symbolic links are not followed inside a game directory")
              .of(cur.string()));
    if (i + 1 < segs.size() && !fs::is_directory(cur, ec))
      return core::fail(core::Diagnostic::error("vfs.not_found", "path segment is not a directory").of(cur.string()));
  }
  return cur;
}

core::Result<core::Bytes> DirectoryVfs::read(const GamePath& path) const {
  SORTIE_TRY(auto host, resolve(path));
  std::error_code ec;
  if (!fs::is_regular_file(host, ec))
    return core::fail(core::Diagnostic::error("vfs.not_a_file", "not a regular file").of(host.string()));
  return core::read_file(host);
}

bool DirectoryVfs::exists(const GamePath& path) const {
  auto r = resolve(path);
  std::error_code ec;
  return r.has_value() && fs::is_regular_file(*r, ec);
}

core::Result<std::vector<GamePath>> DirectoryVfs::list(std::string_view prefix) const {
  fs::path start = root_;
  std::string base;
  if (!prefix.empty()) {
    SORTIE_TRY(auto p, normalize_path(prefix, PathPolicy::host_compatible));
    SORTIE_TRY(start, resolve(p));
    base = fs::relative(start, root_).generic_string();
    std::error_code ec;
    if (fs::is_regular_file(start, ec)) {
      SORTIE_TRY(auto g, normalize_path(base, PathPolicy::host_compatible));
      return std::vector<GamePath>{g};
    }
  }
  std::vector<GamePath> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(start, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_symlink()) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    SORTIE_TRY(auto g, normalize_path(fs::relative(it->path(), root_).generic_string(), PathPolicy::host_compatible));
    out.push_back(std::move(g));
  }
  if (ec) return core::fail(core::Diagnostic::error("io.open", ec.message()).of(start.string()));
  std::sort(out.begin(), out.end(), [](const GamePath& a, const GamePath& b) { return a.key < b.key; });
  return out;
}

std::string DirectoryVfs::describe(const GamePath& path) const {
  auto r = resolve(path);
  return r ? r->string() : (root_ / path.path).string();
}

core::Status MemoryVfs::add(std::string_view path, core::Bytes bytes) {
  SORTIE_TRY(auto g, normalize_path(path, PathPolicy::host_compatible));
  auto key = g.key;
  files_.insert_or_assign(std::move(key), std::make_pair(std::move(g), std::move(bytes)));
  return {};
}

core::Result<core::Bytes> MemoryVfs::read(const GamePath& path) const {
  const auto it = files_.find(path.key);
  if (it == files_.end())
    return core::fail(
        core::Diagnostic::error("vfs.not_found", "file not found in the game directory").of(path.original));
  return it->second.second;
}

bool MemoryVfs::exists(const GamePath& path) const {
  return files_.count(path.key) != 0;
}

core::Result<std::vector<GamePath>> MemoryVfs::list(std::string_view prefix) const {
  std::string pkey;
  if (!prefix.empty()) {
    SORTIE_TRY(auto p, normalize_path(prefix, PathPolicy::host_compatible));
    pkey = p.key;
  }
  std::vector<GamePath> out;
  for (const auto& [key, entry] : files_) {
    // segment-boundary safe: DATA matches DATA/x and DATA itself, never DATA2/x
    if (pkey.empty() || key == pkey ||
        (key.size() > pkey.size() && key.compare(0, pkey.size(), pkey) == 0 && key[pkey.size()] == '/'))
      out.push_back(entry.first);
  }
  return out;
}

std::string MemoryVfs::describe(const GamePath& path) const {
  return "memory:" + path.path;
}

}  // namespace sortie::assets
