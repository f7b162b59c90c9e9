#pragma once
// Absolute limits of what libs/assets prepares beyond the format readers' own (iron3d/limits.hpp).
// tests/assets/limits_test.cpp feeds each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::assets {

// An effect's lifetime (FXID header duration_seconds): one hour. The longest retail effects are
// loops of a few seconds; an hour keeps the lifetime in milliseconds exact in an int64 and far
// inside a world clock of microseconds. Longer (or not finite, or negative): fx.duration.
inline constexpr double kMaxEffectSeconds = 3600.0;

// Commands of one effect sortie prepares: 4096 (the reader already bounds the count by the
// payload; this bounds the typed views and the traces of one instance). More: fx.limit.
inline constexpr std::size_t kMaxEffectCommands = 4096;

// A number an effect's fields give (offsets, sizes, ranges, colours, distances, the header's scale
// and random shift): within +-1,000,000. Products of two (scale times a size, colour times
// strength) then stay far inside float, so running an effect cannot overflow to infinity.
// Beyond (or not finite): fx.field.
inline constexpr float kMaxEffectValue = 1.0e6f;

}  // namespace sortie::assets
