#pragma once
// The viewer's frame loop: window events and scripted events -> mode->on_event -> mode->step ->
// mode->draw -> [screenshot] -> FPS line and HUD -> blit. Quits on Escape, window close, or after
// --frames N.
#include <filesystem>
#include <memory>
#include <string>

#include "sortie/world/trace.hpp"
#include "viewer_mode.hpp"

namespace sortie::viewer {

struct AppOptions {
  std::uint32_t width = 1280;
  std::uint32_t height = 720;
  std::uint64_t frames = 0;          // 0: until closed; else quit after N frames (dt = 1/60 s each)
  std::filesystem::path screenshot;  // written after the last frame of --frames
  std::filesystem::path script;      // scripted input
  unsigned threads = 0;              // render threads (0 = every core)
  // --bench-frames N: after kBenchWarmupFrames frames, time N frames (dt = 1/60 s each) and print
  // the distribution of the frame time and its parts (step, draw, HUD text, present); then quit.
  std::uint64_t bench_frames = 0;
};

inline constexpr std::uint64_t kBenchWarmupFrames = 30;

// The window, its framebuffer and the renderer: the viewer's display subsystem, opened by the
// program bootstrap before the main loop (apps/viewer/main.cpp) and closed after it.
struct AppSurface;
struct AppSurfaceDeleter {
  void operator()(AppSurface* surface) const;
};
using AppSurfacePtr = std::unique_ptr<AppSurface, AppSurfaceDeleter>;
// Errors: the window's (SDL) and the framebuffer's.
core::Result<AppSurfacePtr> open_surface(const std::string& title, const AppOptions& options);

// The viewer's whole run through the program bootstrap (main.cpp): the mode `factory` makes, its
// subsystems, the window; returns the process exit code.
int run_viewer(const ModeFactory& factory, const AppOptions& options, const world::TraceOptions& trace);

// Runs `mode` in the surface's window (the main loop); returns the process exit code.
int run_app(ViewerMode& mode, const AppOptions& options, AppSurface& surface);

}  // namespace sortie::viewer
