// fog_tile's pixel step over one vector of pixels, written once over a lane vocabulary V
// (atmosphere.cpp: SSE2, four lanes, or its scalar emulation; raster_avx2.cpp: AVX2, eight
// lanes, included inside its AVX2 target region). Lane for lane equal to atmosphere.cpp's
// fogged(): the view distance from the window depth, the fog factor in [0, fog_max] (0 where
// nothing was drawn or the depth is NaN), each channel moved toward the fog colour.
//
// The including file defines V (F, I, fs, is, load_depth, load_color, store_color) first and
// includes this inside an unnamed namespace; the operations are found by argument lookup.

template <class V>
inline void fog_lanes(const AtmosphereState& a, std::uint32_t* color, const float* depth, float clear_z) {
  using Lf = typename V::F;
  using Li = typename V::I;
  const Lf d = V::load_depth(depth);
  const Lf n = d * V::fs(2.0f) - V::fs(1.0f);
  const Lf denom = n * V::fs(a.p32) - V::fs(a.p22);
  const Li has_denom = cmpeq(denom, V::fs(0.0f)) ^ V::is(-1);
  const Lf safe = from_bits((bits(denom) & has_denom) | andnot(has_denom, bits(V::fs(1.0f))));
  const Lf quotient = (V::fs(a.p23) - n * V::fs(a.p33)) / safe;
  const Lf vz = from_bits(bits(quotient) & has_denom);
  const Lf neg_vz = from_bits(bits(vz) ^ V::is(std::numeric_limits<std::int32_t>::min()));
  const Lf scaled = (neg_vz - V::fs(a.fog_start)) * V::fs(a.fog_scale);
  const Lf raw = min(scaled, V::fs(a.fog_max));  // scaled < fog_max ? scaled : fog_max
  const Li fog = cmplt(d, V::fs(clear_z)) & cmpgt(raw, V::fs(0.0f));
  const Lf f = from_bits(bits(raw) & fog);
  const Li c = V::load_color(color);
  const Li byte = V::is(0xff);
  const auto blend = [&f](Li channel, float to) {
    const Lf x = to_f(channel);
    return trunc_i(x + (V::fs(to) - x) * f + V::fs(0.5f));
  };
  const Li r = blend(c & byte, a.fog_r);
  const Li g = blend(srl<8>(c) & byte, a.fog_g);
  const Li b = blend(srl<16>(c) & byte, a.fog_b);
  V::store_color(color, r | sll<8>(g) | sll<16>(b) | (c & V::is(static_cast<std::int32_t>(0xff000000u))));
}
