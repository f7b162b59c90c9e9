#pragma once
// Read-only file mappings and shared, immutable byte buffers.
//
// SharedBytes is an input a reader can borrow instead of copying: an immutable span plus
// whatever keeps it alive (an owned Bytes or a MappedFile). Copies share the same bytes. A
// reader that keeps a SharedBytes (iron3d::NresArchive) hands out views into it that stay
// valid for as long as the reader's result lives.
//
// MappedFile maps a regular file read-only (mmap, MAP_PRIVATE); pages are read on first use,
// so opening a large archive touches its header and directory only. The caveat of every file
// mapping: if another process truncates the file while it is mapped, reading the lost pages
// raises SIGBUS. sortie's own writers replace files by rename (write_file_atomic), which
// leaves an existing mapping intact.
#include <cstdint>
#include <filesystem>
#include <memory>

#include "sortie/core/bytes.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::core {

class MappedFile {
 public:
  // Codes: "io.open" (cannot open, or not a regular file), "io.too_large", "io.read" (the
  // mapping failed). An empty file gives an empty mapping.
  static Result<MappedFile> open(const std::filesystem::path& path, std::uint64_t max_size = kDefaultFileLimit);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] ByteView bytes() const { return {static_cast<const std::uint8_t*>(addr_), size_}; }

 private:
  void* addr_ = nullptr;
  std::size_t size_ = 0;
};

class SharedBytes {
 public:
  SharedBytes() = default;
  // Takes the bytes over (moved, not copied).
  explicit SharedBytes(Bytes bytes);
  // Keeps the mapping alive for as long as any copy lives.
  explicit SharedBytes(MappedFile file);
  // An owned copy of `bytes`.
  static SharedBytes copy_of(ByteView bytes);
  // A file's bytes: mapped when it is a regular file, read otherwise (pipes, devices).
  // Errors are those of read_file ("io.open", "io.read", "io.too_large").
  static Result<SharedBytes> from_file(const std::filesystem::path& path, std::uint64_t max_size = kDefaultFileLimit);

  [[nodiscard]] ByteView view() const { return view_; }
  [[nodiscard]] const std::uint8_t* data() const { return view_.data(); }
  [[nodiscard]] std::size_t size() const { return view_.size(); }
  [[nodiscard]] bool empty() const { return view_.empty(); }

 private:
  std::shared_ptr<const void> owner_;
  ByteView view_;
};

}  // namespace sortie::core
