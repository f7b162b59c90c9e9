#pragma once
// Every absolute limit of the fomap readers (issue #21 part 4). The text grammar (config.hpp) is
// bounded by the file reader's size limit (core::kDefaultFileLimit); these bound what the baked
// blobs and the script scanner can be made to allocate or walk. spec/fomap.md sets no number for
// any of them. tests/fomap/limits_test.cpp feeds each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::fomap {

// One dictionary string of a baked blob: 1 MiB (the strings are proto, script and
// resource names); fomap.bin.string_too_long.
inline constexpr std::uint32_t kMaxBlobDictionaryString = 1u << 20;
// Dictionary strings, and records of one section, of a baked blob: 2^24 (far above any map of the corpus);
// fomap.bin.limit, before anything is reserved.
inline constexpr std::uint64_t kMaxBlobCount = 16u * 1024 * 1024;
// Nested namespaces the script index follows: 64 (the recursion-depth default of
// iron3d-formats.md §1.1; scripts nest one or two). Deeper blocks are skipped, not indexed: the index is a
// lint aid, so a deeper namespace is not an error.
inline constexpr std::size_t kMaxScriptNamespaceDepth = 64;

}  // namespace sortie::fomap
