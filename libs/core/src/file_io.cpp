#include "sortie/core/file_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace sortie::core {
namespace fs = std::filesystem;

// ---- fault injection (the disk-fault tests, issue #21 part 3) ------------------------------

namespace {

struct FaultSpec {
  std::string step;
  int err = 0;
  int nth = 1;
};

std::optional<FaultSpec> fault_spec() {
  const char* text = std::getenv("SORTIE_FAULT");
  if (text == nullptr || *text == '\0') return std::nullopt;
  const std::string s(text);
  const auto a = s.find(':');
  if (a == std::string::npos) return std::nullopt;
  const auto b = s.find(':', a + 1);
  const std::string name = s.substr(a + 1, b == std::string::npos ? std::string::npos : b - a - 1);
  static const std::pair<const char*, int> kErrnos[] = {{"ENOSPC", ENOSPC}, {"EIO", EIO},       {"EROFS", EROFS},
                                                        {"EACCES", EACCES}, {"EDQUOT", EDQUOT}, {"EFBIG", EFBIG}};
  FaultSpec f;
  f.step = s.substr(0, a);
  for (const auto& [n, e] : kErrnos)
    if (name == n) f.err = e;
  if (f.err == 0) return std::nullopt;
  if (b != std::string::npos) f.nth = std::max(1, std::atoi(s.c_str() + b + 1));
  return f;
}

// The errno the environment asks this step to fail with, or 0. SORTIE_FAULT="STEP:ERRNO[:N]"
// fails the Nth (default first) STEP of the process: create (the temporary file), write, fsync
// or rename; ERRNO is ENOSPC, EIO, EROFS, EACCES, EDQUOT or EFBIG. Unset: no cost but a getenv.
int injected(std::string_view step) {
  static const std::optional<FaultSpec> spec = fault_spec();
  static int seen = 0;
  if (!spec || spec->step != step) return 0;
  return ++seen == spec->nth ? spec->err : 0;
}

int open_new(const char* path, int mode) {
  if (const int e = injected("create")) return errno = e, -1;
  return ::open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
}
ssize_t write_some(int fd, const void* data, std::size_t size) {
  if (const int e = injected("write")) return errno = e, -1;
  return ::write(fd, data, size);
}
int flush(int fd) {
  if (const int e = injected("fsync")) return errno = e, -1;
  return ::fsync(fd);
}
int rename_over(const char* from, const char* to) {
  if (const int e = injected("rename")) return errno = e, -1;
  return ::rename(from, to);
}

}  // namespace

Result<Bytes> read_file(const fs::path& path, std::uint64_t max_size) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    return fail(Diagnostic::error("io.open", "is a directory, not a file").of(path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(
        Diagnostic::error("io.open", fmt::format("cannot open file: {}", std::strerror(errno))).of(path.string()));
  in.seekg(0, std::ios::end);
  const auto end = in.tellg();
  if (end < 0) return fail(Diagnostic::error("io.read", "cannot determine file size").of(path.string()));
  const auto size = static_cast<std::uint64_t>(end);
  if (size > max_size)
    return fail(Diagnostic::error("io.too_large", "file is larger than the reader's limit")
                    .of(path.string())
                    .expect(fmt::format("<= {} bytes", max_size), fmt::format("{} bytes", size)));
  in.seekg(0);
  Bytes data(static_cast<std::size_t>(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size)))
    return fail(Diagnostic::error("io.read", "short read").of(path.string()));
  return data;
}

Result<std::string> read_text_file(const fs::path& path, std::uint64_t max_size) {
  SORTIE_TRY(auto bytes, read_file(path, max_size));
  return std::string(bytes.begin(), bytes.end());
}

Status write_file_atomic(const fs::path& path, ByteView data) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::random_device rd;
  const fs::path tmp = dir / fmt::format(".{}.tmp.{:08x}", path.filename().string(), rd());
  const int fd = open_new(tmp.c_str(), 0644);
  if (fd < 0)
    return fail(Diagnostic::error("io.write", fmt::format("cannot create temporary file: {}", std::strerror(errno)))
                    .of(path.string()));
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write_some(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return fail(Diagnostic::error("io.write", fmt::format("write failed: {}", std::strerror(err))).of(path.string()));
    }
    done += static_cast<std::size_t>(n);
  }
  if (flush(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(Diagnostic::error("io.write", fmt::format("flush failed: {}", std::strerror(err))).of(path.string()));
  }
  if (rename_over(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(Diagnostic::error("io.write", fmt::format("rename failed: {}", std::strerror(err))).of(path.string()));
  }
  return {};
}

// ---- in-place rewrites and all-or-nothing file sets (POSIX: open/fsync/rename/link) ----------

namespace {

Diagnostic write_error(const fs::path& path, std::string_view what, int err) {
  return Diagnostic::error("io.write", fmt::format("{}: {}", what, std::strerror(err))).of(path.string());
}

// A name in the directory of `path` that nothing else uses ("." prefix: hidden from globs).
fs::path sibling(const fs::path& path, std::string_view tag) {
  static std::random_device rd;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  return dir / fmt::format(".{}.{}.{:08x}", path.filename().string(), tag, rd());
}

// Writes `data` to a new temporary next to `path`, flushed to disk, and returns its path. With
// `keep`, the temporary gets that file's permission bits and (where permitted) its owner;
// without, the permissions a new file gets (0666 less the umask).
Result<fs::path> stage(const fs::path& path, ByteView data, const struct stat* keep) {
  const fs::path tmp = sibling(path, "tmp");
  const int fd = open_new(tmp.c_str(), keep ? 0600 : 0666);
  if (fd < 0) return fail(write_error(path, "cannot create a temporary file", errno));
  auto fail_with = [&](std::string_view what) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return fail(write_error(path, what, err));
  };
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write_some(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail_with("write failed");
    }
    done += static_cast<std::size_t>(n);
  }
  if (keep) {
    // The owner first: changing it may clear set-id bits, which the mode then restores.
    if (::fchown(fd, keep->st_uid, keep->st_gid) != 0 && errno != EPERM) return fail_with("cannot keep the owner");
    if (::fchmod(fd, keep->st_mode & 07777) != 0) return fail_with("cannot keep the permissions");
  }
  if (flush(fd) != 0) return fail_with("flush failed");
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(write_error(path, "flush failed", err));
  }
  return tmp;
}

}  // namespace

Status rewrite_file(const fs::path& path, std::string_view text) {
  std::error_code ec;
  const fs::path target = fs::canonical(path, ec);  // every link resolved: the file that is edited
  if (ec)
    return fail(Diagnostic::error("io.open", fmt::format("cannot resolve the file to rewrite: {}", ec.message()))
                    .of(path.string()));
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0)
    return fail(Diagnostic::error("io.open", fmt::format("cannot stat: {}", std::strerror(errno))).of(path.string()));
  if (!S_ISREG(st.st_mode)) return fail(Diagnostic::error("io.open", "not a regular file").of(path.string()));
  SORTIE_TRY(const fs::path tmp, stage(target, as_bytes(text), &st));
  if (rename_over(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(write_error(path, "rename failed", err));
  }
  return {};
}

Status write_files_together(std::span<const FileWrite> files) {
  struct Staged {
    fs::path tmp;
    std::optional<fs::path> previous;  // a hard link to the file being replaced
    bool placed = false;
  };
  std::vector<Staged> staged;
  staged.reserve(files.size());
  // Undoes everything: the files already placed get their previous contents back (or go away),
  // temporaries and the links to previous contents are removed.
  auto roll_back = [&] {
    for (std::size_t i = 0; i < staged.size(); ++i) {
      Staged& s = staged[i];
      if (s.placed) {
        if (s.previous) {
          if (::rename(s.previous->c_str(), files[i].path.c_str()) == 0) s.previous.reset();
        } else {
          ::unlink(files[i].path.c_str());
        }
      } else {
        ::unlink(s.tmp.c_str());
      }
      if (s.previous) ::unlink(s.previous->c_str());
    }
  };
  for (const FileWrite& f : files) {
    auto tmp = stage(f.path, f.data, nullptr);
    if (!tmp) {
      roll_back();
      return fail(tmp.error());
    }
    staged.push_back(Staged{*tmp, std::nullopt, false});
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& path = files[i].path;
    Staged& s = staged[i];
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
      const fs::path keep = sibling(path, "old");
      if (::link(path.c_str(), keep.c_str()) != 0) {
        const int err = errno;
        roll_back();
        return fail(write_error(path, "cannot keep the previous file until the set is written", err));
      }
      s.previous = keep;
    }
    if (rename_over(s.tmp.c_str(), path.c_str()) != 0) {
      const int err = errno;
      roll_back();
      return fail(write_error(path, "rename failed (no file of the set was changed)", err));
    }
    s.placed = true;
  }
  for (const Staged& s : staged)
    if (s.previous) ::unlink(s.previous->c_str());
  return {};
}

}  // namespace sortie::core
