#pragma once
// A viewer mode: what the window shows and how it reacts to input. The app (viewer_app.cpp)
// owns the window, the frame loop, the FPS line, screenshots and scripted input; a mode only
// handles events, steps its own state once per frame and draws into the framebuffer.
//
// Adding a mode: a mode_<name>.cpp that defines a ViewerMode and registers it with
// SORTIE_VIEWER_MODE(<name>, ...): `sortie-viewer <name> [options]` then runs it. The mission
// mode is the default when no mode name is given.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "input.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/render/framebuffer.hpp"
#include "sortie/render/renderer.hpp"

namespace sortie::mission {
class Bootstrap;
}

namespace sortie::viewer {

class ViewerMode {
 public:
  virtual ~ViewerMode() = default;
  [[nodiscard]] virtual std::string title() const = 0;
  // Every input event of the frame, before step(); the framebuffer size is the viewport.
  virtual void on_event(const InputEvent& event, const InputState& state, int width, int height) = 0;
  // Once per frame; `dt` is the platform time since the previous frame in seconds (a mode that
  // runs a simulation keeps its own fixed tick, e.g. world::FrameLoop).
  virtual core::Status step(double dt, const InputState& state) = 0;
  // Draws the frame (the whole framebuffer).
  virtual core::Status draw(render::Renderer& renderer, render::Framebuffer& target) = 0;
  // Lines of text drawn at the top left under the FPS line (not in screenshots).
  [[nodiscard]] virtual std::vector<std::string> hud() const { return {}; }
  // Whether Escape belongs to the mode (a menu) instead of closing the window.
  [[nodiscard]] virtual bool handles_escape() const { return false; }
  // The mode asks to close the window (its menu's quit), checked after every frame's events.
  [[nodiscard]] virtual bool wants_quit() const { return false; }
  // Whether the mode wants relative mouse motion now (mouse look).
  [[nodiscard]] virtual bool relative_mouse() const { return false; }
  // After the last frame (window closed, Escape, --frames reached): the process exit code.
  virtual int finish() { return 0; }
  // Frames count (--frames, --script, --screenshot) only once the mode is ready: the join mode
  // holds them until its game has the player's units, so a scripted run does not depend on how
  // long the session's setup takes to arrive.
  [[nodiscard]] virtual bool ready() const { return true; }
  // The program bootstrap's SUBSYSTEMS_READY: a mode with a world installs the bootstrap's trace
  // and the cache maintenance on it (mission mode). Errors stop the start-up.
  virtual core::Status attach(mission::Bootstrap& /*boot*/) { return {}; }
};

// Builds the mode after the command line is parsed (Result errors: exit 1/2 by code, as the CLI).
using ModeFactory = std::function<core::Result<std::unique_ptr<ViewerMode>>()>;
// Adds the mode's options to `app` (its subcommand, or the root for the default mode) and
// returns the factory that reads them.
using ModeSetup = std::function<ModeFactory(CLI::App& app)>;

struct ModeInfo {
  std::string name;
  std::string help;
  ModeSetup setup;
};

void register_mode(ModeInfo info);
const std::vector<ModeInfo>& modes();  // in name order

struct ModeRegistration {
  explicit ModeRegistration(ModeInfo info) { register_mode(std::move(info)); }
};

}  // namespace sortie::viewer

#define SORTIE_VIEWER_MODE(name, help, ...) \
  static const ::sortie::viewer::ModeRegistration sortie_viewer_mode_##name({#name, help, __VA_ARGS__})
