#include "sortie/assets/prepared_effect.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "sortie/assets/limits.hpp"
#include "sortie/core/text.hpp"

namespace sortie::assets {
namespace {

using core::Diagnostic;
using iron3d::FxidCommand;

// ---- one field table per opcode, read and written by the same visitor -------------------------
// Offsets are from the command start (the u32 word included), as spec §19.6 gives them; the body
// holds the bytes after the word, so a field at +N lives at body[N - 4].

struct Reader {
  const FxidCommand& c;
  void operator()(std::size_t at, float& v) const { v = core::load_f32(&c.body[at - 4]); }
  void operator()(std::size_t at, std::uint32_t& v) const { v = core::load_u32(&c.body[at - 4]); }
  void operator()(std::size_t at, core::Vec3& v) const {
    (*this)(at, v.x);
    (*this)(at + 4, v.y);
    (*this)(at + 8, v.z);
  }
  void operator()(std::size_t at, EffectWindow& w) const {
    (*this)(at, w.start);
    (*this)(at + 4, w.end);
  }
};

struct Writer {
  FxidCommand& c;
  void operator()(std::size_t at, const float& v) const {
    core::store_u32(&c.body[at - 4], std::bit_cast<std::uint32_t>(v));
  }
  void operator()(std::size_t at, const std::uint32_t& v) const { core::store_u32(&c.body[at - 4], v); }
  void operator()(std::size_t at, const core::Vec3& v) const {
    (*this)(at, v.x);
    (*this)(at + 4, v.y);
    (*this)(at + 8, v.z);
  }
  void operator()(std::size_t at, const EffectWindow& w) const {
    (*this)(at, w.start);
    (*this)(at + 4, w.end);
  }
};

template <class Fields, class V>
void light_layout(Fields& f, const V& v) {
  v(4, f.mode);
  v(8, f.window);
  v(16, f.offset_min);
  v(28, f.offset_max);
  v(112, f.range_min);
  v(116, f.range_max);
  v(120, f.strength);
  v(124, f.color);
}

template <class Fields, class V>
void sound_layout(Fields& f, const V& v) {
  v(4, f.mode);
  v(8, f.window);
  v(16, f.offset);
  for (std::size_t i = 0; i < 4; ++i) v(64 + 4 * i, f.params[i]);
  v(80, f.parameter);
}

template <class Fields, class V>
void body_layout(Fields& f, const V& v) {
  v(4, f.mode);
  v(8, f.alpha_source);
  v(20, f.alpha_min);
  v(24, f.alpha_max);
  v(28, f.alpha_power);
  v(32, f.window);
  v(40, f.size_min);
  v(52, f.size_max);
  v(64, f.offset_min);
  v(76, f.offset_max);
  v(112, f.size_power);
  v(124, f.offset_power);
}

bool body_fits(const FxidCommand& c, std::uint32_t opcode) {
  return c.body.size() + 4 == iron3d::fxid_command_size(opcode);
}

std::string text_of(const char* data, std::size_t n) {
  std::string_view s(data, n);
  if (const auto nul = s.find('\0'); nul != std::string_view::npos) s = s.substr(0, nul);
  return std::string(core::trim(s));
}

// ---- checks -------------------------------------------------------------------------------------

struct Check {
  const std::string& where;  // "effects.rlb/lightning"
  std::size_t index;
  std::uint32_t opcode;
  std::string reason;  // the first finite value the command cannot run with

  // A value that is not finite, or beyond kMaxEffectValue, refuses the effect.
  core::Status finite(std::string_view field, std::size_t offset, float v) const {
    if (std::isfinite(v) && std::abs(v) <= kMaxEffectValue) return {};
    return core::fail(Diagnostic::error("fx.field", fmt::format("{}: commands[{}] (opcode {}) {} at +{} is not a "
                                                                "finite number within +-{}",
                                                                where, index, opcode, field, offset, kMaxEffectValue))
                          .of(where)
                          .in(fmt::format("commands[{}].{}", index, field))
                          .expect(fmt::format("a finite number within +-{}", kMaxEffectValue), fmt::format("{}", v)));
  }
  core::Status finite(std::string_view field, std::size_t offset, const core::Vec3& v) const {
    SORTIE_CHECK(finite(field, offset, v.x));
    SORTIE_CHECK(finite(field, offset + 4, v.y));
    return finite(field, offset + 8, v.z);
  }
  core::Status window(std::size_t offset, const EffectWindow& w) {
    SORTIE_CHECK(finite("window", offset, w.start));
    SORTIE_CHECK(finite("window", offset + 4, w.end));
    if (reason.empty() && !(w.start >= 0.0f && w.start <= w.end && w.end <= 1.0f))
      reason = fmt::format("its window [{}, {}] is not inside the lifetime [0, 1]", w.start, w.end);
    return {};
  }
  void require(bool ok, std::string why) {
    if (!ok && reason.empty()) reason = std::move(why);
  }
};

EffectWindow read_window(EffectWindow w) {
  if (w.start == 0.0f && w.end == 0.0f) w.end = 1.0f;  // a zero-filled command: the whole lifetime
  return w;
}

core::Status check_light(Check& k, EffectLightFields& f) {
  f.window = read_window(f.window);
  SORTIE_CHECK(k.window(8, f.window));
  SORTIE_CHECK(k.finite("offset_min", 16, f.offset_min));
  SORTIE_CHECK(k.finite("offset_max", 28, f.offset_max));
  SORTIE_CHECK(k.finite("range_min", 112, f.range_min));
  SORTIE_CHECK(k.finite("range_max", 116, f.range_max));
  SORTIE_CHECK(k.finite("strength", 120, f.strength));
  SORTIE_CHECK(k.finite("color", 124, f.color));
  k.require(f.range_min > 0.0f && f.range_max > 0.0f,
            fmt::format("its range {}..{} is not above 0 (a light reaches nothing)", f.range_min, f.range_max));
  k.require(f.strength >= 0.0f && f.color.x >= 0.0f && f.color.y >= 0.0f && f.color.z >= 0.0f,
            "its colour or strength is negative");
  return {};
}

core::Status check_sound(Check& k, EffectSoundFields& f, std::string_view sample) {
  f.window = read_window(f.window);
  SORTIE_CHECK(k.window(8, f.window));
  SORTIE_CHECK(k.finite("offset", 16, f.offset));
  SORTIE_CHECK(k.finite("min_distance", 64, f.params[0]));
  SORTIE_CHECK(k.finite("max_distance", 68, f.params[1]));
  SORTIE_CHECK(k.finite("frequency_ratio", 72, f.params[2]));
  k.require(!sample.empty(), "it names no sample (archive[32] + name[32] at +84 are empty)");
  k.require(f.min_distance() >= 0.0f && f.min_distance() <= f.max_distance(),
            fmt::format("its distances {}..{} are not 0 <= min <= max", f.min_distance(), f.max_distance()));
  k.require(f.frequency_ratio() > 0.0f && f.frequency_ratio() <= 16.0f,
            fmt::format("its frequency ratio {} is not in (0, 16]", f.frequency_ratio()));
  return {};
}

core::Status check_body(Check& k, EffectBodyFields& f) {
  f.window = read_window(f.window);
  SORTIE_CHECK(k.finite("alpha_source", 8, f.alpha_source));
  SORTIE_CHECK(k.finite("alpha_min", 20, f.alpha_min));
  SORTIE_CHECK(k.finite("alpha_max", 24, f.alpha_max));
  SORTIE_CHECK(k.finite("alpha_power", 28, f.alpha_power));
  SORTIE_CHECK(k.window(32, f.window));
  SORTIE_CHECK(k.finite("size_min", 40, f.size_min));
  SORTIE_CHECK(k.finite("size_max", 52, f.size_max));
  SORTIE_CHECK(k.finite("offset_min", 64, f.offset_min));
  SORTIE_CHECK(k.finite("offset_max", 76, f.offset_max));
  SORTIE_CHECK(k.finite("size_power", 112, f.size_power));
  SORTIE_CHECK(k.finite("offset_power", 124, f.offset_power));
  auto non_negative = [](const core::Vec3& v) { return v.x >= 0.0f && v.y >= 0.0f && v.z >= 0.0f; };
  k.require(non_negative(f.size_min) && non_negative(f.size_max), "a size is negative");
  k.require(f.size_max.x > 0.0f || f.size_min.x > 0.0f, "its width (size x) is 0 throughout");
  k.require(f.size_max.z > 0.0f || f.size_min.z > 0.0f, "its height (size z) is 0 throughout");
  return {};
}

std::string flag_phrase(std::uint32_t bit) {
  switch (bit) {
    case 0x0001:
      return "flag 0x0001 (random phase jitter)";
    case 0x0010:
      return "flag 0x0010 (visibility/occlusion branch)";
    case 0x0040:
      return "flag 0x0040 (starts inactive)";
    case 0x0080:
      return "flag 0x0080 (day/night filter A)";
    case 0x0100:
      return "flag 0x0100 (day/night filter B)";
    case 0x0400:
      return "flag 0x0400 (manager bit)";
    case 0x0800:
      return "flag 0x0800 (gating change)";
    case 0x1000:
      return "flag 0x1000 (manager state bit)";
    default:
      return fmt::format("flag 0x{:04x} (unknown)", bit);
  }
}

std::string time_mode_phrase(std::uint32_t mode) {
  if (mode == 4 || mode == 16 || mode == 17)
    return fmt::format("time_mode {} (an external value from the world)", mode);
  if (mode >= 5 && mode <= 12) return fmt::format("time_mode {} (a ratio of two vector parameters)", mode);
  if (mode == 13) return "time_mode 13 (1 - an external resource value)";
  if (mode == 14) return "time_mode 14 (1 - queue parameter 49)";
  if (mode == 15) return "time_mode 15 (max of modes 5 and 9)";
  return fmt::format("time_mode {} (unknown)", mode);
}

// The header's parts sortie does not run, one phrase each.
std::vector<std::string> header_kept(const iron3d::FxidHeader& h) {
  std::vector<std::string> out;
  if (!effect_time_mode_known(h.time_mode))
    out.push_back(time_mode_phrase(h.time_mode) + ": the effect runs at full value");
  constexpr std::uint32_t kRun = 0x0008 | 0x0020 | 0x0200;  // random shift, triangular, alpha x lifetime
  for (std::uint32_t bit = 1; bit != 0; bit <<= 1)
    if ((h.flags & bit) != 0 && (kRun & bit) == 0) out.push_back(flag_phrase(bit));
  if (h.pivot != std::array<float, 3>{}) out.push_back("the pivot");
  return out;
}

core::Status check_header(const iron3d::FxidHeader& h, const std::string& where, std::int64_t& lifetime_ms) {
  const float d = h.duration_seconds;
  if (!std::isfinite(d) || d < 0.0f || static_cast<double>(d) > kMaxEffectSeconds)
    return core::fail(
        Diagnostic::error("fx.duration", fmt::format("{}: the effect's lifetime (duration_seconds) is not a "
                                                     "finite number of seconds in 0..{}",
                                                     where, kMaxEffectSeconds))
            .of(where)
            .in("header.duration_seconds")
            .expect(fmt::format("0 <= seconds <= {}", kMaxEffectSeconds), fmt::format("{}", d)));
  lifetime_ms = std::llround(static_cast<double>(d) * 1000.0);
  const char* fields[] = {"phase_jitter", "random_shift", "pivot", "scale"};
  const std::array<const float*, 4> first{&h.phase_jitter, h.random_shift.data(), h.pivot.data(), h.scale.data()};
  const std::array<std::size_t, 4> count{1, 3, 3, 3};
  for (std::size_t i = 0; i < first.size(); ++i)
    for (std::size_t k = 0; k < count[i]; ++k)
      if (!std::isfinite(first[i][k]) || std::abs(first[i][k]) > kMaxEffectValue)
        return core::fail(
            Diagnostic::error("fx.field", fmt::format("{}: header {} is not a finite number within +-{}", where,
                                                      fields[i], kMaxEffectValue))
                .of(where)
                .in(fmt::format("header.{}", fields[i]))
                .expect(fmt::format("a finite number within +-{}", kMaxEffectValue), fmt::format("{}", first[i][k])));
  return {};
}

// The reference of a command (archive[32] + name[32] at its opcode's offset), cut and trimmed.
void read_reference(const FxidCommand& c, PreparedEffectCommand& out) {
  const auto off = iron3d::fxid_reference_offset(c.opcode());
  if (!off || *off - 4 + 64 > c.body.size()) return;
  const auto* p = reinterpret_cast<const char*>(c.body.data() + *off - 4);
  out.reference_archive = text_of(p, 32);
  out.reference_name = text_of(p + 32, 32);
}

core::Status prepare_command(const FxidCommand& c, std::size_t index, const std::string& where,
                             PreparedEffectCommand& out) {
  out.index = index;
  out.opcode = c.opcode();
  out.enabled = c.enabled();
  read_reference(c, out);
  Check k{where, index, out.opcode, {}};
  if (out.opcode == 1 && body_fits(c, 1)) {
    EffectLightFields f = read_light_fields(c);
    SORTIE_CHECK(check_light(k, f));
    out.fields = f;
  } else if (out.opcode == 2 && body_fits(c, 2)) {
    EffectSoundFields f = read_sound_fields(c);
    SORTIE_CHECK(check_sound(k, f, out.reference_name));
    out.fields = f;
  } else if (out.opcode == 3 && body_fits(c, 3)) {
    EffectBodyFields f = read_body_fields(c);
    SORTIE_CHECK(check_body(k, f));
    out.fields = f;
  } else if (out.opcode >= 1 && out.opcode <= 3) {
    k.require(false,
              fmt::format("its body has {} bytes, not {}", c.body.size() + 4, iron3d::fxid_command_size(out.opcode)));
  } else {
    k.require(false, fmt::format("opcode {} is not executed", out.opcode));
  }
  if (k.reason.empty() && !out.enabled) k.reason = "it is disabled (bit 8 of its word is clear)";
  out.kept_because = std::move(k.reason);
  return {};
}

}  // namespace

// ---- names ------------------------------------------------------------------------------------

EffectRef EffectRef::parse(std::string_view text) {
  text = core::trim(text);
  EffectRef r;
  const auto cut = text.find_last_of("/\\");
  if (cut == std::string_view::npos) {
    r.archive = std::string(kDefaultEffectArchive);
    r.name = std::string(text);
  } else {
    r.archive = std::string(core::trim(text.substr(0, cut)));
    r.name = std::string(core::trim(text.substr(cut + 1)));
    if (r.archive.empty()) r.archive = std::string(kDefaultEffectArchive);
  }
  return r;
}

std::string EffectRef::to_string() const {
  return archive + "/" + name;
}

std::string EffectRef::key() const {
  return core::ascii_upper(archive) + "/" + core::ascii_upper(name);
}

// ---- field tables -----------------------------------------------------------------------------

EffectLightFields read_light_fields(const FxidCommand& c) {
  EffectLightFields f;
  light_layout(f, Reader{c});
  return f;
}
EffectSoundFields read_sound_fields(const FxidCommand& c) {
  EffectSoundFields f;
  sound_layout(f, Reader{c});
  return f;
}
EffectBodyFields read_body_fields(const FxidCommand& c) {
  EffectBodyFields f;
  body_layout(f, Reader{c});
  return f;
}
void write_light_fields(FxidCommand& c, const EffectLightFields& f) {
  light_layout(f, Writer{c});
}
void write_sound_fields(FxidCommand& c, const EffectSoundFields& f) {
  sound_layout(f, Writer{c});
}
void write_body_fields(FxidCommand& c, const EffectBodyFields& f) {
  body_layout(f, Writer{c});
}

// ---- the effect ---------------------------------------------------------------------------------

bool effect_time_mode_known(std::uint32_t time_mode) {
  return time_mode <= 3;
}

float PreparedEffect::value_at(float tn) const {
  tn = std::clamp(tn, 0.0f, 1.0f);
  float v = 1.0f;
  switch (fx.header.time_mode) {
    case 1:
      v = tn;
      break;
    case 2:
      v = tn - std::floor(tn);
      break;
    case 3:
      v = 1.0f - tn;
      break;
    default:
      break;  // 0 constant; modes 4..17 are kept (header_kept says so)
  }
  if ((fx.header.flags & 0x0200u) != 0) v *= tn;                               // alpha x normalised lifetime
  if ((fx.header.flags & 0x0020u) != 0) v = (v < 0.5f ? v : 1.0f - v) * 2.0f;  // triangular remap
  return v;
}

core::Result<PreparedEffect> prepare_effect(const iron3d::Fxid& fx, std::string archive, std::string entry) {
  PreparedEffect e;
  e.archive = std::move(archive);
  e.entry = std::move(entry);
  const std::string where = e.label();
  if (fx.commands.size() > kMaxEffectCommands)
    return core::fail(Diagnostic::error("fx.limit", fmt::format("{}: more commands than sortie prepares", where))
                          .of(where)
                          .in("command_count")
                          .expect(fmt::format("<= {}", kMaxEffectCommands), fmt::format("{}", fx.commands.size())));
  SORTIE_CHECK(check_header(fx.header, where, e.lifetime_ms));
  e.commands.resize(fx.commands.size());
  for (std::size_t i = 0; i < fx.commands.size(); ++i) {
    PreparedEffectCommand& c = e.commands[i];
    SORTIE_CHECK(prepare_command(fx.commands[i], i, where, c));
    // Opcodes 4..10 and disabled commands are kept quietly (the start trace names them); a command
    // of 1..3 kept for its values is a finding.
    if (!c.executed() && c.opcode >= 1 && c.opcode <= 3 && c.enabled)
      e.warnings.push_back(Diagnostic::warning("fx.command_skipped",
                                               fmt::format("{}: commands[{}] (opcode {}) is kept, not executed: {}",
                                                           where, i, c.opcode, c.kept_because))
                               .of(where)
                               .in(fmt::format("commands[{}]", i)));
  }
  e.header_kept = header_kept(fx.header);
  e.fx = fx;
  return e;
}

iron3d::Fxid lightning_fxid(std::string_view sound_archive, std::string_view sound_name, std::string_view material) {
  iron3d::Fxid fx;
  fx.header.time_mode = 3;  // 1 - tn: the flash fades out over the lifetime
  fx.header.duration_seconds = 0.25f;
  fx.header.scale = {1.0f, 1.0f, 1.0f};
  auto light = *iron3d::make_fxid_command(1, true);
  EffectLightFields l;
  l.window = {0.0f, 1.0f};
  l.range_min = l.range_max = 2000.0f;
  l.strength = 2.0f;
  l.color = {0.85f, 0.9f, 1.0f};
  write_light_fields(light, l);
  auto sound = iron3d::make_fxid_command(2, true, sound_archive, sound_name);
  if (!sound) sound = iron3d::make_fxid_command(2, true);
  EffectSoundFields s;
  s.window = {0.0f, 1.0f};
  s.offset = {0.0f, 0.0f, -300.0f};          // the thunder plays at the strike
  s.params = {100.0f, 1500.0f, 1.0f, 1.0f};  // seed 001: min distance, max distance, frequency ratio; +76 kept
  write_sound_fields(*sound, s);
  auto body = iron3d::make_fxid_command(3, true, "material.lib", material);
  if (!body) body = iron3d::make_fxid_command(3, true);
  EffectBodyFields b;
  b.alpha_source = -1.0f;  // alpha follows the effect value (time_mode 3: fading)
  b.alpha_min = 0.0f;
  b.alpha_max = 1.0f;
  b.alpha_power = 1.0f;
  b.window = {0.0f, 1.0f};
  b.size_min = b.size_max = {40.0f, 40.0f, 600.0f};  // seed 001: the native descriptor
  b.size_power = b.offset_power = {1.0f, 1.0f, 1.0f};
  write_body_fields(*body, b);
  fx.commands = {std::move(light), std::move(*sound), std::move(*body)};
  return fx;
}

std::vector<std::string> effect_material_names(const PreparedEffect& effect) {
  std::vector<std::string> out;
  for (const auto& c : effect.commands)
    if (c.executed() && c.opcode == 3 && !c.reference_name.empty()) out.push_back(c.reference_name);
  return out;
}

}  // namespace sortie::assets
