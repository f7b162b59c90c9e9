#pragma once
// The limit of the format rows libs/formats adds to the format table (issue #21 part 4): how much
// of a file their content detection looks at. Detection runs on every file a command is given,
// so it reads a bounded prefix; past it a file is detected by its name only (kDetectName). The
// readers' own limits are in their areas (env/limits.hpp for the weather schedule, fomap's).
// tests/formats/limits_test.cpp feeds a marker ending at the limit and one byte later.
#include <cstddef>

namespace sortie::formats {

// Bytes content detection reads of a text file: 4 KiB (a format's marker is on its first lines;
// a sample manifest is under 4 KiB whole).
inline constexpr std::size_t kSniffBytes = 4096;

}  // namespace sortie::formats
