#pragma once
// The MS ADPCM sample step of the decoder (wave_decode.cpp). The encoder (wave_encode.cpp) runs
// the same step lane-wise on its trial chains with these constants, so what it measures while
// choosing a block's predictor is exactly what every decoder will play.
#include <algorithm>
#include <climits>
#include <cstdint>

namespace sortie::iron3d::detail {

inline constexpr int kAdpcmAdapt[16] = {230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230};
// Hostile blocks could grow delta without bound; real encoders stay far below. Capping at
// INT_MAX / 768 keeps every product inside 32 bits (the same cap ffmpeg's decoder applies).
inline constexpr int kAdpcmMaxDelta = INT_MAX / 768;
inline constexpr int kAdpcmMinDelta = 16;

struct AdpcmChannel {
  int c1 = 0;
  int c2 = 0;
  int delta = 0;
  int s1 = 0;
  int s2 = 0;
};

inline int adpcm_predict(const AdpcmChannel& ch) {
  return (ch.s1 * ch.c1 + ch.s2 * ch.c2) >> 8;
}

// One 4-bit code (0..15, two's complement) into the next sample; advances the channel.
inline std::int16_t adpcm_expand(AdpcmChannel& ch, int nibble) {
  const int predicted = adpcm_predict(ch);
  const int signed_nibble = nibble - ((nibble & 8) << 1);
  int sample = signed_nibble * ch.delta + predicted;
  sample = std::clamp(sample, -32768, 32767);
  const int delta = (kAdpcmAdapt[nibble] * ch.delta) >> 8;
  ch.delta = std::clamp(delta, kAdpcmMinDelta, kAdpcmMaxDelta);
  ch.s2 = ch.s1;
  ch.s1 = sample;
  return static_cast<std::int16_t>(sample);
}

}  // namespace sortie::iron3d::detail
