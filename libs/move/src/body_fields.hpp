#pragma once
// The fields a move.enable command gives a Body (shape .. is_static), written in the one order
// that both the command's payload (core::ByteWriter) and the body's state encoding
// (world::StateWriter) use: u8 shape (0 circle, 1 capsule), f32 radius, height, max_speed,
// u32 category, u32 collides_with, u8 static (0|1).
#include <cstdint>

namespace sortie::move::detail {

template <class Writer, class Fields>
void write_body_fields(Writer& out, const Fields& f) {
  out.u8(static_cast<std::uint8_t>(f.shape));
  out.f32(f.radius);
  out.f32(f.height);
  out.f32(f.max_speed);
  out.u32(f.category);
  out.u32(f.collides_with);
  out.u8(f.is_static ? 1 : 0);
}

}  // namespace sortie::move::detail
