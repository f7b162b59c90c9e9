#include "sortie/squad/input.hpp"

#include <fmt/format.h>

#include <cmath>

namespace sortie::squad {

core::Vec2 InputFrame::move() const {
  const core::Vec2 v{static_cast<float>(move_x) / 127.0f, static_cast<float>(move_y) / 127.0f};
  const float len2 = core::length_squared(v);
  if (len2 > 1.0f) return v / std::sqrt(len2);
  return v;
}

InputFrame InputFrame::moving_towards(core::Vec2 direction) {
  InputFrame f;
  const core::Vec2 d = core::normalize_or(direction, {});
  const auto q = [](float c) {
    const float v = std::nearbyint(c * 127.0f);
    return static_cast<std::int8_t>(core::clamp(v, -127.0f, 127.0f));
  };
  f.move_x = q(d.x);
  f.move_y = q(d.y);
  return f;
}

void write_input_frame(core::ByteWriter& w, const InputFrame& f) {
  w.u8(static_cast<std::uint8_t>(f.move_x));
  w.u8(static_cast<std::uint8_t>(f.move_y));
  const auto bit = [](bool b, int n) { return static_cast<std::uint8_t>(b ? (1u << n) : 0u); };
  w.u8(static_cast<std::uint8_t>(bit(f.sprint, 0) | bit(f.toggle_manual, 1) | bit(f.aim_left, 2) | bit(f.aim_right, 3) |
                                 bit(f.cycle_target, 4)));
  w.u8(f.formation);
}

core::Result<InputFrame> read_input_frame(core::ByteReader& r) {
  const std::size_t at = r.offset();
  SORTIE_TRY(const std::uint8_t mx, r.u8());
  SORTIE_TRY(const std::uint8_t my, r.u8());
  SORTIE_TRY(const std::uint8_t buttons, r.u8());
  SORTIE_TRY(const std::uint8_t formation, r.u8());
  if (mx == 0x80 || my == 0x80) {
    return core::fail(r.error_at(at + (mx == 0x80 ? 0 : 1), "squad.input.move", "movement byte -128 is not used")
                          .expect("-127 .. 127", "-128"));
  }
  if ((buttons & 0xe0u) != 0) {
    return core::fail(r.error_at(at + 2, "squad.input.buttons", "reserved button bits are set")
                          .expect("bits 5..7 clear", fmt::format("0x{:02x}", buttons)));
  }
  if (formation > 3) {
    return core::fail(r.error_at(at + 3, "squad.input.formation", "unknown formation")
                          .expect("0 .. 3", fmt::format("{}", formation)));
  }
  InputFrame f;
  f.move_x = static_cast<std::int8_t>(mx);
  f.move_y = static_cast<std::int8_t>(my);
  f.sprint = (buttons & 1u) != 0;
  f.toggle_manual = (buttons & 2u) != 0;
  f.aim_left = (buttons & 4u) != 0;
  f.aim_right = (buttons & 8u) != 0;
  f.cycle_target = (buttons & 16u) != 0;
  f.formation = formation;
  return f;
}

core::Bytes write_input_log(const InputLog& log) {
  core::ByteWriter w;
  w.bytes(std::string_view("SQIL"));
  w.u32(kInputLogVersion);
  w.u64(log.seed);
  w.u64(log.map_fingerprint);
  const std::size_t count_at = w.size();
  w.u32(0);
  std::uint32_t runs = 0;
  std::size_t i = 0;
  while (i < log.frames.size()) {
    std::size_t j = i + 1;
    while (j < log.frames.size() && log.frames[j] == log.frames[i] && j - i < 0xffffffffu) ++j;
    w.u32(static_cast<std::uint32_t>(j - i));
    write_input_frame(w, log.frames[i]);
    ++runs;
    i = j;
  }
  w.patch_u32(count_at, runs);
  return w.take();
}

core::Result<InputLog> read_input_log(core::ByteView bytes, std::string_view file) {
  core::ByteReader r(bytes, std::string(file));
  r.set_code_prefix("squad.input");
  SORTIE_TRY(const core::ByteView magic, r.bytes(4));
  if (core::as_chars(magic) != "SQIL") {
    return core::fail(r.error_at(0, "squad.input.magic", "not a squad input log").expect("SQIL", core::to_hex(magic)));
  }
  SORTIE_TRY(const std::uint32_t version, r.u32());
  if (version != kInputLogVersion) {
    return core::fail(r.error_at(4, "squad.input.version", "unknown input log version")
                          .expect(fmt::format("{}", kInputLogVersion), fmt::format("{}", version)));
  }
  InputLog log;
  SORTIE_TRY(log.seed, r.u64());
  SORTIE_TRY(log.map_fingerprint, r.u64());
  SORTIE_TRY(const std::uint32_t runs, r.u32());
  SORTIE_CHECK(r.check_count(runs, 4 + kInputFrameBytes, "runs", kInputLogTicksMax));
  std::uint64_t total = 0;
  InputFrame previous;
  for (std::uint32_t k = 0; k < runs; ++k) {
    r.set_field(fmt::format("runs[{}]", k));
    const std::size_t at = r.offset();
    SORTIE_TRY(const std::uint32_t length, r.u32());
    SORTIE_TRY(const InputFrame frame, read_input_frame(r));
    if (length == 0) {
      return core::fail(
          r.error_at(at, "squad.input.run", "a run of zero ticks").in(r.field()).expect("length >= 1", "0"));
    }
    if (k > 0 && frame == previous) {
      return core::fail(
          r.error_at(at, "squad.input.run", "a run repeats the previous frame (not canonical)").in(r.field()));
    }
    total += length;
    if (total > kInputLogTicksMax) {
      return core::fail(r.error_at(at, "squad.input.length", "the log is longer than the tick limit")
                            .in(r.field())
                            .expect(fmt::format("<= {} ticks", kInputLogTicksMax), fmt::format("{}", total)));
    }
    log.frames.insert(log.frames.end(), length, frame);
    previous = frame;
  }
  r.set_field({});
  SORTIE_CHECK(r.require_end("input log"));
  return log;
}

}  // namespace sortie::squad
