#include "sortie/core/mapped_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace sortie::core {
namespace fs = std::filesystem;

Result<MappedFile> MappedFile::open(const fs::path& path, std::uint64_t max_size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return fail(
        Diagnostic::error("io.open", fmt::format("cannot open file: {}", std::strerror(errno))).of(path.string()));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const bool directory = S_ISDIR(st.st_mode);
    ::close(fd);
    return fail(Diagnostic::error("io.open", directory ? "is a directory, not a file" : "not a regular file")
                    .of(path.string()));
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_size) {
    ::close(fd);
    return fail(Diagnostic::error("io.too_large", "file is larger than the reader's limit")
                    .of(path.string())
                    .expect(fmt::format("<= {} bytes", max_size), fmt::format("{} bytes", size)));
  }
  MappedFile m;
  if (size > 0) {
    void* addr = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      return fail(
          Diagnostic::error("io.read", fmt::format("cannot map file: {}", std::strerror(err))).of(path.string()));
    }
    m.addr_ = addr;
    m.size_ = static_cast<std::size_t>(size);
  }
  ::close(fd);  // the mapping stays valid without the descriptor
  return m;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : addr_(std::exchange(other.addr_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    if (addr_ != nullptr) ::munmap(addr_, size_);
    addr_ = std::exchange(other.addr_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() {
  if (addr_ != nullptr) ::munmap(addr_, size_);
}

SharedBytes::SharedBytes(Bytes bytes) {
  auto owned = std::make_shared<const Bytes>(std::move(bytes));
  view_ = ByteView(*owned);
  owner_ = std::move(owned);
}

SharedBytes::SharedBytes(MappedFile file) {
  auto owned = std::make_shared<const MappedFile>(std::move(file));
  view_ = owned->bytes();
  owner_ = std::move(owned);
}

SharedBytes SharedBytes::copy_of(ByteView bytes) {
  return SharedBytes(Bytes(bytes.begin(), bytes.end()));
}

Result<SharedBytes> SharedBytes::from_file(const fs::path& path, std::uint64_t max_size) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    SORTIE_TRY(auto bytes, read_file(path, max_size));
    return SharedBytes(std::move(bytes));
  }
  SORTIE_TRY(auto mapped, MappedFile::open(path, max_size));
  return SharedBytes(std::move(mapped));
}

}  // namespace sortie::core
