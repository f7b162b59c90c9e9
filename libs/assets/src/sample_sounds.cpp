// Sound content of the sample game (see sample_sounds.hpp). Everything is synthesised here
// with plain arithmetic (no libm: a polynomial sine, equal-temperament ratios as constants) and
// one fixed RNG stream, so the bytes depend only on this code.
#include "sample_sounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "sortie/core/rng.hpp"
#include "sortie/iron3d/nres.hpp"
#include "sortie/iron3d/wave.hpp"

namespace sortie::assets::detail {
namespace {

constexpr std::uint32_t kRate = 22050;
constexpr double kFrame = 1.0 / kRate;

std::size_t frames_of(double seconds) {
  return static_cast<std::size_t>(std::llround(seconds * kRate));
}

// sin(2 pi t) for t in [0, 1): a parabola refined once (error below 0.1 %).
double sine_turns(double t) {
  const double u = t < 0.5 ? t : t - 1.0;
  const double y = 8.0 * u - 16.0 * u * (u < 0 ? -u : u);
  return 0.225 * (y * (y < 0 ? -y : y) - y) + y;
}

// MIDI note to Hz, A4 (69) = 440 Hz.
double note_hz(int midi) {
  static constexpr double kRatio[12] = {1.0,
                                        1.0594630943592953,
                                        1.122462048309373,
                                        1.189207115002721,
                                        1.2599210498948732,
                                        1.3348398541700344,
                                        1.4142135623730951,
                                        1.4983070768766815,
                                        1.5874010519681994,
                                        1.681792830507429,
                                        1.7817974362806785,
                                        1.8877486253633868};
  const int n = midi - 69;
  const int octave = n >= 0 ? n / 12 : -((11 - n) / 12);
  double hz = 440.0 * kRatio[n - 12 * octave];
  for (int o = 0; o < octave; ++o) hz *= 2.0;
  for (int o = 0; o > octave; --o) hz *= 0.5;
  return hz;
}

// One cycle of a timbre (harmonic amplitudes), 2048 points plus a guard point.
class Wavetable {
 public:
  static constexpr std::uint32_t kBits = 11;
  static constexpr std::uint32_t kSize = 1u << kBits;
  explicit Wavetable(std::initializer_list<double> harmonics) : table_(kSize + 1) {
    for (std::uint32_t j = 0; j <= kSize; ++j) {
      double v = 0.0;
      std::uint32_t h = 1;
      for (const double a : harmonics) {
        v += a * sine_turns(static_cast<double>((h * j) % kSize) / kSize);
        ++h;
      }
      table_[j] = v;
    }
  }
  // Phase: 32-bit fraction of a cycle.
  [[nodiscard]] double at(std::uint32_t phase) const {
    const std::uint32_t i = phase >> (32 - kBits);
    const double frac = static_cast<double>(phase & ((1u << (32 - kBits)) - 1)) * (1.0 / (1u << (32 - kBits)));
    return table_[i] + (table_[i + 1] - table_[i]) * frac;
  }

 private:
  std::vector<double> table_;
};

struct Voice {
  double start = 0.0;   // seconds
  double length = 0.0;  // seconds until the release ends
  int note = 69;        // MIDI
  double amplitude = 0.0;
  double attack = 0.005;  // seconds
  double decay = 0.0;     // per second (exponential, 0 = sustained)
  double release = 0.02;  // seconds, linear fade at the end
};

// Adds a voice into `out`; with `wrap` the voice continues from the start (a seamless loop).
void add_voice(std::vector<double>& out, const Wavetable& table, const Voice& v, bool wrap) {
  const std::size_t begin = frames_of(v.start);
  const std::size_t n = frames_of(v.length);
  const std::size_t attack = std::max<std::size_t>(1, frames_of(v.attack));
  const std::size_t release = std::max<std::size_t>(1, frames_of(v.release));
  const auto increment = static_cast<std::uint32_t>(note_hz(v.note) * kFrame * 4294967296.0);
  const double keep = 1.0 - v.decay * kFrame;
  std::uint32_t phase = 0;
  double level = v.amplitude;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t at = begin + i;
    if (at >= out.size()) {
      if (!wrap) break;
      at %= out.size();
    }
    double gain = level;
    if (i < attack) gain *= static_cast<double>(i) / static_cast<double>(attack);
    if (i + release > n) gain *= static_cast<double>(n - i) / static_cast<double>(release);
    out[at] += gain * table.at(phase);
    phase += increment;
    level *= keep;
  }
}

// White noise in [-1, 1).
double noise(core::Rng& rng) {
  return static_cast<double>(rng.next_u32() >> 8) * (2.0 / 16777216.0) - 1.0;
}

// A loop of `loop` frames from a longer render: the extra tail is faded into the head, so the
// last frame flows into the first.
std::vector<double> close_loop(std::vector<double> x, std::size_t loop) {
  const std::size_t fade = x.size() - loop;
  for (std::size_t i = 0; i < fade; ++i) {
    const double w = static_cast<double>(i) / static_cast<double>(fade);
    x[i] = x[i] * w + x[loop + i] * (1.0 - w);
  }
  x.resize(loop);
  return x;
}

// Scales to `peak` of full scale and rounds to 16 bits.
std::vector<std::int16_t> to_pcm(const std::vector<double>& x, double peak) {
  double top = 0.0;
  for (const double v : x) top = std::max(top, v < 0 ? -v : v);
  const double scale = top > 0.0 ? peak * 32767.0 / top : 0.0;
  std::vector<std::int16_t> out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double s = std::clamp(x[i] * scale, -32768.0, 32767.0);
    out[i] = static_cast<std::int16_t>(std::lround(s));
  }
  return out;
}

const Wavetable& pad_table() {
  static const Wavetable t{1.0, 0.25, 0.1};
  return t;
}
const Wavetable& bell_table() {
  static const Wavetable t{1.0, 0.5, 0.3, 0.0, 0.12};
  return t;
}
const Wavetable& dark_table() {
  static const Wavetable t{1.0, 0.0, 0.2};
  return t;
}

// The theme: A minor, F, C, G (two beats each at 0.4 s) as a pad, a bass on the downbeats and
// an arpeggio of eighths an octave up; 3.2 s, the tails wrap into the start.
std::vector<std::int16_t> theme() {
  constexpr double kBeat = 0.4;
  static constexpr int kChords[4][3] = {{57, 60, 64}, {53, 57, 60}, {55, 60, 64}, {55, 59, 62}};
  static constexpr int kBass[4] = {45, 41, 48, 43};
  static constexpr int kArp[4] = {0, 1, 2, 1};
  std::vector<double> out(frames_of(8 * kBeat));
  for (int c = 0; c < 4; ++c) {
    const double at = 2 * kBeat * c;
    for (const int note : kChords[c]) add_voice(out, pad_table(), {at, 2 * kBeat, note, 0.12, 0.08, 0.3, 0.1}, true);
    add_voice(out, dark_table(), {at, 2 * kBeat, kBass[c], 0.3, 0.01, 2.5, 0.05}, true);
    for (int e = 0; e < 4; ++e)
      add_voice(out, bell_table(), {at + e * kBeat / 2, 0.5, kChords[c][kArp[e]] + 12, 0.16, 0.004, 5.0, 0.05}, true);
  }
  return to_pcm(out, 0.7);
}

// A variation: five notes `step` apart and a held last one over a soft chord.
std::vector<std::int16_t> phrase(const std::array<int, 6>& notes, const std::array<int, 3>& chord, double step,
                                 double seconds, const Wavetable& timbre) {
  std::vector<double> out(frames_of(seconds));
  for (const int note : chord) add_voice(out, pad_table(), {0.0, seconds, note, 0.08, 0.15, 1.0, 0.3}, false);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    const bool last = i + 1 == notes.size();
    const double at = step * static_cast<double>(i);
    add_voice(out, timbre,
              {at, last ? seconds - at : 2 * step, notes[i], 0.2, 0.004, last ? 2.5 : 6.0, last ? 0.2 : 0.05}, false);
  }
  return to_pcm(out, 0.6);
}

// Rain (1.6 s loop): noise through a low-pass and with its rumble removed, plus drops (short high pings).
std::vector<std::int16_t> rain(core::Rng& rng) {
  const std::size_t loop = frames_of(1.6);  // even: the short last ADPCM block needs no pad code
  std::vector<double> x(loop + frames_of(0.1));
  double low = 0.0, slow = 0.0;
  for (auto& v : x) {
    low += 0.35 * (noise(rng) - low);
    slow += 0.02 * (low - slow);
    v = 0.6 * (low - slow);
  }
  for (int d = 0; d < 36; ++d) {
    const double at = static_cast<double>(rng.below(static_cast<std::uint32_t>(x.size()))) * kFrame;
    add_voice(x, pad_table(), {at, 0.03, 96 + static_cast<int>(rng.below(12)), 0.15, 0.001, 150.0, 0.005}, false);
  }
  return to_pcm(close_loop(std::move(x), loop), 0.5);
}

// Wind: noise through a resonant band-pass whose centre sweeps 250..650 Hz and back once per
// loop, with a swell of the level in the same period.
std::vector<std::int16_t> wind(core::Rng& rng) {
  const std::size_t loop = frames_of(2.0);
  std::vector<double> x(loop + frames_of(0.15));
  double low = 0.0, band = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double cycle = static_cast<double>(i % loop) / static_cast<double>(loop);
    const double centre = 450.0 + 200.0 * sine_turns(cycle);
    const double f = 2.0 * sine_turns(centre * kFrame * 0.5);
    low += f * band;
    const double high = noise(rng) - low - 0.25 * band;
    band += f * high;
    x[i] = band * (0.65 + 0.35 * sine_turns(cycle < 0.75 ? cycle + 0.25 : cycle - 0.75));
  }
  return to_pcm(close_loop(std::move(x), loop), 0.5);
}

// Thunder: a short broadband crack, then low-passed noise rolling in three swells and dying away.
std::vector<std::int16_t> thunder(core::Rng& rng) {
  std::vector<double> x(frames_of(2.0));
  const std::size_t crack = frames_of(0.06);
  double a = 0.0, b = 0.0, level = 1.0;
  static constexpr double kSwells[3][2] = {{0.25, 0.9}, {0.6, 0.7}, {1.05, 0.5}};
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double t = static_cast<double>(i) * kFrame;
    const double n = noise(rng);
    a += 0.045 * (n - a);
    b += 0.045 * (a - b);
    double swell = 0.35;
    for (const auto& [at, height] : kSwells) {
      const double d = (t - at) / 0.18;
      if (d > -1.0 && d < 1.0) swell += height * (1.0 - (d < 0 ? -d : d));
    }
    double v = 8.0 * b * swell * level;
    if (i < crack) v += n * 0.8 * static_cast<double>(crack - i) / static_cast<double>(crack);
    level *= 1.0 - 1.4 * kFrame;
    x[i] = v;
  }
  // A 100 ms fade-out ends in silence.
  const std::size_t out_fade = frames_of(0.1);
  for (std::size_t i = 0; i < out_fade; ++i)
    x[x.size() - 1 - i] *= static_cast<double>(i) / static_cast<double>(out_fade);
  return to_pcm(x, 0.85);
}

enum class Coding : std::uint8_t { pcm, adpcm };

core::Status add_sound(GameBuilder& game, const std::string& archive, std::string name,
                       const std::vector<std::int16_t>& pcm, Coding coding) {
  core::Bytes bytes;
  if (coding == Coding::pcm) {
    bytes = iron3d::write_wave(iron3d::make_pcm16_wave(kRate, 1, pcm));
  } else {
    SORTIE_TRY(const auto wave, iron3d::encode_ms_adpcm(kRate, 1, pcm));
    bytes = iron3d::write_wave(wave);
  }
  game.add_nres_entry(archive,
                      iron3d::NresEntrySpec{iron3d::nres_type_tag("SWAV"), 0, 0, 0, std::move(name), std::move(bytes)});
  return {};
}

}  // namespace

SampleSky sample_sky(std::uint32_t mission_index) {
  return static_cast<SampleSky>(mission_index % 3);
}

core::Status add_sample_sound_libraries(GameBuilder& game) {
  struct Phrase {
    const char* archive;
    const char* name;
    std::array<int, 6> notes;
    std::array<int, 3> chord;
    double step;
    double seconds;
    bool dark;
    Coding coding;
  };
  // DEFAULT: C pentatonic; DAY: C and F major, quick and bright; NIGHT: A and D minor, slower
  // and darker; WINTER (music.lib, the snow mission's LIBRARY): E minor, high.
  static constexpr Phrase kSoundsLib[] = {
      {"sounds.lib", "DEFAULT1.WAV", {72, 74, 76, 79, 76, 72}, {60, 64, 67}, 0.15, 1.2, false, Coding::pcm},
      {"sounds.lib", "DEFAULT2.WAV", {67, 69, 72, 74, 72, 67}, {55, 60, 64}, 0.15, 1.2, false, Coding::adpcm},
      {"sounds.lib", "DAY1.WAV", {60, 64, 67, 72, 76, 79}, {48, 55, 64}, 0.12, 1.2, false, Coding::adpcm},
      {"sounds.lib", "DAY2.WAV", {65, 69, 72, 77, 81, 77}, {53, 60, 69}, 0.12, 1.2, false, Coding::adpcm},
      {"sounds.lib", "NIGHT1.WAV", {81, 76, 72, 69, 64, 69}, {45, 52, 60}, 0.22, 1.6, true, Coding::adpcm},
      {"sounds.lib", "NIGHT2.WAV", {74, 69, 65, 62, 57, 62}, {50, 57, 65}, 0.22, 1.6, true, Coding::pcm}};
  static constexpr Phrase kMusicLib[] = {
      {"music.lib", "WINTER1.WAV", {88, 83, 79, 76, 79, 83}, {52, 59, 67}, 0.15, 1.2, false, Coding::pcm},
      {"music.lib", "WINTER2.WAV", {76, 79, 83, 88, 86, 83}, {52, 59, 67}, 0.15, 1.2, false, Coding::adpcm}};
  auto add_phrase = [&game](const Phrase& p) {
    const Wavetable& timbre = p.dark ? dark_table() : bell_table();
    return add_sound(game, p.archive, p.name, phrase(p.notes, p.chord, p.step, p.seconds, timbre), p.coding);
  };
  core::Rng rng(0x534F554E44ull, 0x57415645);  // "SOUND", "WAVE": independent of the sample seed
  // sounds.lib: 8 of 10 MS ADPCM, music.lib 1 of 2: 9 of 12, as retail has about three quarters.
  SORTIE_CHECK(add_sound(game, "sounds.lib", "THEME.WAV", theme(), Coding::adpcm));
  for (const Phrase& p : kSoundsLib) SORTIE_CHECK(add_phrase(p));
  SORTIE_CHECK(add_sound(game, "sounds.lib", "ATM_RAIN1.WAV", rain(rng), Coding::adpcm));
  SORTIE_CHECK(add_sound(game, "sounds.lib", "ATM_SNOW1.WAV", wind(rng), Coding::adpcm));
  SORTIE_CHECK(add_sound(game, "sounds.lib", "THUNDER1.WAV", thunder(rng), Coding::adpcm));
  for (const Phrase& p : kMusicLib) SORTIE_CHECK(add_phrase(p));
  return {};
}

std::string sample_mission_cfg(SampleSky sky) {
  static constexpr const char* kDescription[3] = {"clear sky: the DEFAULT pool", "rain: DAY and NIGHT pools",
                                                  "snow: the DEFAULT pool from music.lib"};
  std::string out = fmt::format(
      "// sortie sample mission music ({})\n"
      "object ambient_music_loop\n"
      "  desc ambient_music_loop\n"
      "  library sounds.lib\n"
      "  libtype 0\n"
      "  type 1\n"
      "  THEME THEME.WAV\n"
      "end\n"
      "object ambient_music_variation\n"
      "  desc ambient_music_variation\n"
      "  library {}\n"
      "  libtype 0\n"
      "  type 2\n",
      kDescription[static_cast<int>(sky)], sky == SampleSky::snow ? "music.lib" : "sounds.lib");
  switch (sky) {
    case SampleSky::clear:
      out += "  DEFAULT_VARIATION1 DEFAULT1.WAV\n  DEFAULT_VARIATION2 DEFAULT2.WAV\n";
      break;
    case SampleSky::rain:
      out +=
          "  DAY_VARIATION1 DAY1.WAV\n  DAY_VARIATION2 DAY2.WAV\n"
          "  NIGHT_VARIATION1 NIGHT1.WAV\n  NIGHT_VARIATION2 NIGHT2.WAV\n";
      break;
    case SampleSky::snow:
      out += "  DEFAULT_VARIATION1 WINTER1.WAV\n  DEFAULT_VARIATION2 WINTER2.WAV\n";
      break;
  }
  out += "end\n";
  return out;
}

std::string sample_sky_weather(SampleSky sky, core::Vec2 min, core::Vec2 max, float ground_z) {
  switch (sky) {
    case SampleSky::clear:
      return "# sortie sample mission weather: clear sky\nsortie-weather 1\nkey 0 none 0\n";
    case SampleSky::rain:
      return fmt::format(
          "# sortie sample mission weather: rain, lightning from 20 s to 150 s; an overcast day\n"
          "# (|rgb| 1.29 > 1.1: DAY variations) turning to night at 90 s (|rgb| 0.24: NIGHT)\n"
          "sortie-weather 1\n"
          "sky overcast 0.72 0.74 0.78 until 90\n"
          "sky night 0.10 0.12 0.18 from 90\n"
          "material rain rain_drop\n"
          "material lightning env_lightning\n"
          "sample rain sounds.lib/ATM_RAIN1.WAV\n"
          "sample lightning sounds.lib/THUNDER1.WAV\n"
          "effect lightning effects.rlb/lightning\n"
          "lightning_bounds {:.1f} {:.1f} {:.1f} {:.1f} {:.1f}\n"
          "key 0 rain 0.3\n"
          "key 20 rain 0.8 lightning\n"
          "key 90 rain 0.6 lightning\n"
          "key 150 rain 0.25\n",
          min.x, min.y, max.x, max.y, ground_z);
    case SampleSky::snow:
      return "# sortie sample mission weather: snow under a pale winter sky\n"
             "sortie-weather 1\n"
             "sky winter 0.78 0.8 0.86\n"
             "material snow snow_flake\n"
             "sample snow sounds.lib/ATM_SNOW1.WAV\n"
             "key 0 snow 0.4\n"
             "key 60 snow 0.9\n"
             "key 150 snow 0.5\n";
  }
  return {};
}

}  // namespace sortie::assets::detail
