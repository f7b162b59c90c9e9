#pragma once
// The player's input for one tick, and a recorded input log that replays to the same hash.
//
// Frame bytes (4):
//   i8 move_x, i8 move_y   movement, -127..127 (divided by 127; -128 is rejected); y points south
//   u8 buttons             bit0 sprint (held), bit1 toggle manual aim (pressed this tick),
//                          bit2 aim left (held), bit3 aim right (held), bit4 cycle target (pressed),
//                          bits 5..7 must be 0
//   u8 formation           0 keep, 1 wedge, 2 line, 3 ring
// Log bytes: "SQIL", u32 version = 1, u64 seed, u64 map fingerprint (map_fingerprint), u32 run
// count, then per run: u32 length (>= 1) and one frame. Runs are canonical (adjacent runs differ),
// so write(read(bytes)) == bytes; the reader is bounded and ends exactly at the payload end.
#include <cstdint>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"
#include "sortie/squad/limits.hpp"  // kInputLogTicksMax

namespace sortie::squad {

struct InputFrame {
  std::int8_t move_x = 0;
  std::int8_t move_y = 0;
  bool sprint = false;
  bool toggle_manual = false;
  bool aim_left = false;
  bool aim_right = false;
  bool cycle_target = false;
  std::uint8_t formation = 0;
  friend constexpr bool operator==(const InputFrame&, const InputFrame&) = default;

  // Movement as a vector of length <= 1 (longer inputs are normalised).
  [[nodiscard]] core::Vec2 move() const;
  [[nodiscard]] bool moving() const { return move_x != 0 || move_y != 0; }
  // Quantises a direction (any length) to the frame's movement bytes.
  static InputFrame moving_towards(core::Vec2 direction);
};

inline constexpr std::size_t kInputFrameBytes = 4;
inline constexpr std::uint32_t kInputLogVersion = 1;

void write_input_frame(core::ByteWriter& w, const InputFrame& f);
// Codes: squad.input.move (-128), squad.input.buttons (reserved bits), squad.input.formation.
core::Result<InputFrame> read_input_frame(core::ByteReader& r);

struct InputLog {
  std::uint64_t seed = 0;
  std::uint64_t map_fingerprint = 0;
  std::vector<InputFrame> frames;  // one per tick, tick 1 first
  friend bool operator==(const InputLog&, const InputLog&) = default;
};

core::Bytes write_input_log(const InputLog& log);
// Codes: squad.input.magic, squad.input.version, squad.input.run (zero length or a run equal to
// the previous one), squad.input.length (total over kInputLogTicksMax), squad.input.eof,
// squad.input.trailing, squad.input.limit (more runs than kInputLogTicksMax).
core::Result<InputLog> read_input_log(core::ByteView bytes, std::string_view file = {});

}  // namespace sortie::squad
