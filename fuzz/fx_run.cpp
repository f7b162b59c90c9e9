// Fuzzes an effect from its FXID bytes to what presentation gets: an FXID the reader accepts is
// prepared (assets/prepared_effect.hpp: refused with fx.* or prepared) and a prepared one is run
// (env/effect.hpp) at its start, its middle and its last millisecond, with the random shift on;
// every light, body and sound it yields must be finite (docs/effects.md: no NaN reaches a light, a
// source or a vertex), and the start trace must name every command.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "sortie/assets/prepared_effect.hpp"
#include "sortie/env/effect.hpp"
#include "sortie/iron3d/fxid.hpp"

namespace {

bool finite(const sortie::core::Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  auto fx = iron3d::read_fxid(core::ByteView(data, size));
  if (!fx) return 0;
  auto prepared = assets::prepare_effect(*fx, "effects.rlb", "fuzz");
  if (!prepared) return 0;
  const auto effect = std::make_shared<const assets::PreparedEffect>(std::move(*prepared));
  if (effect->lifetime_ms < 0 || effect->commands.size() != fx->commands.size()) __builtin_trap();
  env::EffectRunner runner;
  runner.start(effect, "fuzz", {100.0f, -50.0f, 7.0f}, 1000, size);
  const std::int64_t life = effect->lifetime_ms;
  for (const std::int64_t t : {std::int64_t{1000}, 1000 + life / 2, 1000 + life - 1, 1000 + life}) {
    const env::EffectFrame& f = runner.update(t);
    for (const auto& l : f.lights)
      if (!finite(l.position) || !finite(l.color) || !std::isfinite(l.radius)) __builtin_trap();
    for (const auto& b : f.bodies)
      if (!finite(b.center) || !finite(b.size) || !(b.alpha >= 0.0f && b.alpha <= 1.0f)) __builtin_trap();
    for (const auto& s : f.sounds)
      if (!finite(s.position) || !(s.min_distance >= 0.0f && s.min_distance <= s.max_distance) ||
          !(s.frequency_ratio > 0.0f))
        __builtin_trap();
  }
  (void)env::describe_effect(*effect);
  return 0;
}
