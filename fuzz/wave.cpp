// Fuzzes the RIFF/WAVE reader (compatible profile) and the PCM / MS ADPCM decoder; accepted
// files write back exactly. A decoded sample (up to 64k frames) goes through the MS ADPCM
// encoder, whose output must decode to at least as many frames as it was given.
#include "sortie/iron3d/wave.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  iron3d::ReadOptions options;
  options.profile = core::Profile::compatible;
  auto w = iron3d::read_wave(in, options);
  if (!w) return 0;
  if (iron3d::write_wave(w->wave) != core::Bytes(in.begin(), in.end())) __builtin_trap();
  auto d = iron3d::decode_wave(w->wave);
  if (d && d->samples.size() % d->channels != 0) __builtin_trap();
  if (d && d->channels <= 2 && d->frames() <= 65536) {
    auto e = iron3d::encode_ms_adpcm(d->sample_rate, d->channels, d->samples);
    if (!e) __builtin_trap();
    auto back = iron3d::decode_wave(iron3d::write_wave(*e));
    if (!back || back->frames() < d->frames() || back->channels != d->channels) __builtin_trap();
  }
  return 0;
}
