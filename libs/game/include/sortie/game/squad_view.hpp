#pragma once
// The squad game's picture: an isometric view of a SquadSnapshot through libs/render with the
// render-only horror layer, and an optional debug overlay.
//
//   SquadView view(SquadViewOptions{.width = 1280, .height = 720});
//   each tick:   view.observe(take_snapshot(sim));   // remembers what the squad has seen, blood
//   each frame:  view.render(snapshot, framebuffer);
//
// Horror layer (presentation only; nothing here feeds back into the simulation):
//   - darkness lit by each soldier's flashlight cone, a small glow around each soldier, muzzle
//     flashes and tracers, with wall shadows (line of sight on the map grid);
//   - fog of war: floor out of the squad's sight is black unless remembered; remembered places
//     stay as a cold, dim memory of the map;
//   - glowing tracers (additive) and muzzle flashes; hostiles' eyes glow in the dark;
//   - blood: every hit, claw and death leaves a splatter on the floor that stays;
//   - vignette, film grain, and tension (hostiles near the squad, leash urgency, losses): a red
//     pulse at the edges of the picture and a darker vignette.
// Debug overlay: registered lanes (firing orange, intent cyan), every agent's 37 solver
// candidates coloured by score (rejected grey, chosen ringed) with the chosen score, the leash
// (disc to each agent, coloured by tension, the anchorLeash and hard-limit circles), and a panel
// of figures.
//
// Coordinates: squad (x east, y south) maps to render (X = x, Y = height - y, Z up).
#include <cstdint>
#include <memory>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/game/squad_snapshot.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::game {

namespace detail {
struct State;
}

struct SquadViewOptions {
  std::uint32_t width = 1280;
  std::uint32_t height = 720;
  bool overlay = false;          // the debug overlay
  bool horror = true;            // light, fog, grain, vignette and tension (off: plain lit scene)
  bool hud = true;               // the small status text
  unsigned threads = 1;          // renderer workers and post-pass bands; the picture is the same for any count
  float view_width = 20.0f;      // world units across the picture
  float yaw = core::kPi / 4.0f;  // camera yaw (render coordinates)
};

struct SquadFrameStats {
  render::FrameStats scene;
  render::FrameStats effects;
  double light_map_ms = 0.0;  // light and sight sampled on the map grid
  double light_ms = 0.0;      // the light map and the per-pixel light/fog pass
  double post_ms = 0.0;       // vignette, grain, tension
  double total_ms = 0.0;
};

class SquadView {
 public:
  explicit SquadView(SquadViewOptions options = {});
  ~SquadView();
  SquadView(SquadView&&) noexcept;
  SquadView& operator=(SquadView&&) noexcept;

  [[nodiscard]] const SquadViewOptions& options() const { return options_; }
  void set_overlay(bool on) { options_.overlay = on; }
  void set_size(std::uint32_t width, std::uint32_t height);

  // Takes in one simulation tick: remembers the cells the squad sees, blood of the tick's hits,
  // recent muzzle flashes; eases the tension. Call once per tick (a skipped tick only loses its
  // blood and flashes). A snapshot of another map (size) starts the memory anew.
  void observe(const SquadSnapshot& snapshot);
  // Forgets everything remembered (a restart).
  void reset();

  // Draws the picture of `snapshot` into `target` (resized to the options' size).
  core::Status render(const SquadSnapshot& snapshot, render::Framebuffer& target, SquadFrameStats* stats = nullptr);

  // Figures of the memory (tests and the HUD).
  [[nodiscard]] std::size_t blood_count() const;
  [[nodiscard]] std::size_t remembered_cells() const;
  [[nodiscard]] float tension() const;

 private:
  SquadViewOptions options_;
  std::unique_ptr<detail::State> state_;
};

}  // namespace sortie::game
