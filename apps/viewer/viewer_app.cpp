#include "viewer_app.hpp"

#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "script.hpp"
#include "sdl_window.hpp"
#include "sortie/cli/report.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/stats.hpp"
#include "sortie/render/font.hpp"
#include "sortie/render/image_io.hpp"

namespace sortie::viewer {

void InputState::apply(const InputEvent& e) {
  switch (e.type) {
    case InputEvent::Type::key_down:
    case InputEvent::Type::key_up:
      held[static_cast<std::size_t>(e.key)] = e.type == InputEvent::Type::key_down;
      break;
    case InputEvent::Type::mouse_down:
    case InputEvent::Type::mouse_up:
      if (e.button >= 1 && e.button <= 3)
        buttons[static_cast<std::size_t>(e.button)] = e.type == InputEvent::Type::mouse_down;
      mouse_x = e.x;
      mouse_y = e.y;
      break;
    case InputEvent::Type::mouse_move:
      if (e.x != 0 || e.y != 0) {
        mouse_x = e.x;
        mouse_y = e.y;
      }
      break;
    default:
      break;
  }
}

namespace {

// The diagnostic and the exit code of both programs (core::exit_code_for).
int report_error(const core::Diagnostic& d) {
  return cli::fail_with(d);
}

using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// --bench-frames: each timed frame's parts in milliseconds.
struct FrameTimes {
  std::vector<double> frame, step, draw, text, present;
  void print(std::uint32_t width, std::uint32_t height, unsigned threads) const {
    std::cout << fmt::format("bench: {} frames at {}x{}, {} render threads, after {} warm-up frames (ms)\n",
                             frame.size(), width, height, threads, kBenchWarmupFrames);
    std::cout << fmt::format("{:<8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "", "min", "p50", "p90", "p99", "max",
                             "mean");
    for (const auto& [name, samples] : {std::pair{"frame", &frame}, std::pair{"step", &step}, std::pair{"draw", &draw},
                                        std::pair{"hud", &text}, std::pair{"present", &present}}) {
      const core::Summary s = core::summarize(*samples);
      std::cout << fmt::format("{:<8} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f}\n", name, s.min, s.p50,
                               s.p90, s.p99, s.max, s.mean);
    }
    const core::Summary f = core::summarize(frame);
    std::cout << fmt::format("bench: p50 {:.2f} ms ({:.1f} FPS), p99 {:.2f} ms\n", f.p50,
                             f.p50 > 0 ? 1000.0 / f.p50 : 0.0, f.p99);
  }
};

}  // namespace

struct AppSurface {
  Window window;
  render::Framebuffer framebuffer;
  render::Renderer renderer;
};

void AppSurfaceDeleter::operator()(AppSurface* surface) const {
  delete surface;
}

core::Result<AppSurfacePtr> open_surface(const std::string& title, const AppOptions& options) {
  SORTIE_TRY(auto window, Window::open(title, static_cast<int>(options.width), static_cast<int>(options.height)));
  SORTIE_TRY(auto fb, render::Framebuffer::create(options.width, options.height));
  return AppSurfacePtr(
      new AppSurface{std::move(window), std::move(fb), render::Renderer(render::RendererOptions{options.threads})});
}

int run_app(ViewerMode& mode, const AppOptions& options, AppSurface& surface) {
  std::vector<ScriptedEvent> script;
  if (!options.script.empty()) {
    auto text = core::read_text_file(options.script);
    if (!text) return report_error(text.error());
    auto parsed = parse_script(*text, options.script.string());
    if (!parsed) return report_error(parsed.error());
    script = std::move(*parsed);
  }
  Window* window = &surface.window;
  render::Framebuffer* fb = &surface.framebuffer;
  render::Renderer& renderer = surface.renderer;
  InputState input;
  std::size_t next_script = 0;
  std::uint64_t screenshots = 0;
  bool relative = false;
  double fps_window_ms = 0.0, frame_ms_avg = 0.0, draw_ms_total = 0.0;
  std::uint64_t fps_frames = 0;
  double fps = 0.0;
  const bool bench = options.bench_frames > 0;
  const std::uint64_t frames = bench ? kBenchWarmupFrames + options.bench_frames : options.frames;
  FrameTimes times;
  auto last = std::chrono::steady_clock::now();
  const auto start = last;
  std::uint64_t frame = 0;  // frames counted: those while the mode is ready (ViewerMode::ready)
  for (;; frame += mode.ready() ? 1 : 0) {
    if (frames > 0 && frame >= frames) break;
    const auto now = std::chrono::steady_clock::now();
    const double real_dt = std::chrono::duration<double>(now - last).count();
    last = now;
    // Scripted runs use a fixed 60 Hz frame time so their pictures do not depend on the machine.
    const double dt = frames > 0 ? 1.0 / 60.0 : real_dt;

    std::vector<InputEvent> events = window->poll();
    while (next_script < script.size() && script[next_script].frame <= frame)
      events.push_back(script[next_script++].event);
    bool quit = false;
    bool shot = false;
    for (const auto& e : events) {
      if (e.type == InputEvent::Type::quit ||
          (e.type == InputEvent::Type::key_down && e.key == Key::escape && !mode.handles_escape()))
        quit = true;
      if (e.type == InputEvent::Type::key_down && e.key == Key::f12) shot = true;
      if (e.type == InputEvent::Type::resize && e.x > 0 && e.y > 0) {
        if (auto st = fb->resize(static_cast<std::uint32_t>(e.x), static_cast<std::uint32_t>(e.y)); !st)
          return report_error(st.error());
      }
      input.apply(e);
      mode.on_event(e, input, static_cast<int>(fb->width()), static_cast<int>(fb->height()));
    }
    if (quit || mode.wants_quit()) break;
    const auto s0 = Clock::now();
    if (auto st = mode.step(dt, input); !st) return report_error(st.error());
    const auto d0 = Clock::now();
    if (auto st = mode.draw(renderer, *fb); !st) return report_error(st.error());
    const auto d1 = Clock::now();
    draw_ms_total += ms_between(d0, d1);
    if (shot) {
      const auto path = fmt::format("sortie-viewer-{:03}.png", screenshots++);
      if (auto st = render::write_png(path, *fb); !st) return report_error(st.error());
      std::cout << "screenshot: " << path << "\n";
    }
    if (frames > 0 && frame + 1 == frames && !options.screenshot.empty()) {
      if (auto st = render::write_png(options.screenshot, *fb); !st) return report_error(st.error());
    }
    // FPS over the last half second.
    fps_window_ms += real_dt * 1000.0;
    ++fps_frames;
    if (fps_window_ms >= 500.0) {
      fps = 1000.0 * static_cast<double>(fps_frames) / fps_window_ms;
      frame_ms_avg = fps_window_ms / static_cast<double>(fps_frames);
      fps_window_ms = 0.0;
      fps_frames = 0;
    }
    int y = 4;
    render::draw_text(*fb, 5, y + 1,
                      fmt::format("{:.1f} FPS  {:.2f} ms/frame  {} threads", fps, frame_ms_avg, renderer.threads()),
                      render::kBlack);
    render::draw_text(*fb, 4, y,
                      fmt::format("{:.1f} FPS  {:.2f} ms/frame  {} threads", fps, frame_ms_avg, renderer.threads()),
                      render::Rgba8{255, 255, 120, 255});
    for (const auto& line : mode.hud()) {
      y += render::kLineHeight + 2;
      render::draw_text(*fb, 5, y + 1, line, render::kBlack);
      render::draw_text(*fb, 4, y, line, render::kWhite);
    }
    if (mode.relative_mouse() != relative) {
      relative = mode.relative_mouse();
      window->set_relative_mouse(relative);
    }
    const auto p0 = Clock::now();
    if (auto st = window->present(*fb); !st) return report_error(st.error());
    if (bench && frame >= kBenchWarmupFrames) {
      const auto p1 = Clock::now();
      times.frame.push_back(ms_between(now, p1));
      times.step.push_back(ms_between(s0, d0));
      times.draw.push_back(ms_between(d0, d1));
      times.text.push_back(ms_between(d1, p0));
      times.present.push_back(ms_between(p0, p1));
    }
  }
  if (bench) times.print(fb->width(), fb->height(), renderer.threads());
  const double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (frame > 0)
    std::cout << fmt::format("{} frames in {:.2f} s: {:.1f} FPS, {:.2f} ms per frame drawing\n", frame, total_s,
                             static_cast<double>(frame) / total_s, draw_ms_total / static_cast<double>(frame));
  return mode.finish();
}

}  // namespace sortie::viewer
