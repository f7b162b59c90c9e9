#include "sortie/core/file_io.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

namespace sortie::core {
namespace fs = std::filesystem;

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
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return fail(Diagnostic::error("io.write", fmt::format("cannot create temporary file: {}", std::strerror(errno)))
                    .of(path.string()));
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return fail(Diagnostic::error("io.write", fmt::format("write failed: {}", std::strerror(err))).of(path.string()));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(Diagnostic::error("io.write", fmt::format("flush failed: {}", std::strerror(err))).of(path.string()));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(Diagnostic::error("io.write", fmt::format("rename failed: {}", std::strerror(err))).of(path.string()));
  }
  return {};
}

}  // namespace sortie::core
