#include "sdl_window.hpp"

#include <SDL.h>

#include <cstdint>
#include <cstring>

namespace sortie::viewer {
namespace {

Key key_of(SDL_Scancode s) {
  switch (s) {
    case SDL_SCANCODE_W:
      return Key::w;
    case SDL_SCANCODE_A:
      return Key::a;
    case SDL_SCANCODE_S:
      return Key::s;
    case SDL_SCANCODE_D:
      return Key::d;
    case SDL_SCANCODE_Q:
      return Key::q;
    case SDL_SCANCODE_E:
      return Key::e;
    case SDL_SCANCODE_LSHIFT:
    case SDL_SCANCODE_RSHIFT:
      return Key::shift;
    case SDL_SCANCODE_SPACE:
      return Key::space;
    case SDL_SCANCODE_F12:
      return Key::f12;
    case SDL_SCANCODE_ESCAPE:
      return Key::escape;
    case SDL_SCANCODE_TAB:
      return Key::tab;
    case SDL_SCANCODE_LEFT:
      return Key::left;
    case SDL_SCANCODE_RIGHT:
      return Key::right;
    case SDL_SCANCODE_1:
      return Key::digit1;
    case SDL_SCANCODE_2:
      return Key::digit2;
    case SDL_SCANCODE_3:
      return Key::digit3;
    case SDL_SCANCODE_4:
      return Key::digit4;
    case SDL_SCANCODE_5:
      return Key::digit5;
    case SDL_SCANCODE_6:
      return Key::digit6;
    case SDL_SCANCODE_7:
      return Key::digit7;
    case SDL_SCANCODE_8:
      return Key::digit8;
    case SDL_SCANCODE_9:
      return Key::digit9;
    case SDL_SCANCODE_LCTRL:
    case SDL_SCANCODE_RCTRL:
      return Key::ctrl;
    case SDL_SCANCODE_RETURN:
    case SDL_SCANCODE_KP_ENTER:
      return Key::enter;
    case SDL_SCANCODE_F:
      return Key::f;
    case SDL_SCANCODE_F5:
      return Key::f5;
    case SDL_SCANCODE_F9:
      return Key::f9;
    case SDL_SCANCODE_EQUALS:
    case SDL_SCANCODE_KP_PLUS:
      return Key::plus;
    case SDL_SCANCODE_MINUS:
    case SDL_SCANCODE_KP_MINUS:
      return Key::minus;
    case SDL_SCANCODE_O:
      return Key::o;
    case SDL_SCANCODE_P:
      return Key::p;
    case SDL_SCANCODE_N:
      return Key::n;
    case SDL_SCANCODE_R:
      return Key::r;
    case SDL_SCANCODE_UP:
      return Key::up;
    case SDL_SCANCODE_DOWN:
      return Key::down;
    case SDL_SCANCODE_HOME:
      return Key::home;
    default:
      return Key::none;
  }
}

core::Diagnostic sdl_error(const char* what) {
  return core::Diagnostic::error("viewer.sdl", std::string(what) + ": " + SDL_GetError());
}

}  // namespace

struct Window::Impl {
  SDL_Window* window = nullptr;
  ~Impl() {
    if (window != nullptr) SDL_DestroyWindow(window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
  }
};

Window::Window(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Window::Window(Window&&) noexcept = default;
Window& Window::operator=(Window&&) noexcept = default;
Window::~Window() = default;

core::Result<Window> Window::open(const std::string& title, int width, int height) {
  // Every pixel is drawn on the CPU: the window surface is blitted straight to the window system
  // (X11: MIT-SHM). SDL would otherwise back the surface with a renderer texture, which without a
  // GPU is a software OpenGL upload and draw per frame (1920x1080 under Xvfb: 20 ms instead of 6).
  // The environment variable SDL_FRAMEBUFFER_ACCELERATION still overrides this default.
  SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) return core::fail(sdl_error("SDL_InitSubSystem"));
  auto impl = std::make_unique<Impl>();
  impl->window = SDL_CreateWindow(title.c_str(), SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, width, height,
                                  SDL_WINDOW_RESIZABLE);
  if (impl->window == nullptr) return core::fail(sdl_error("SDL_CreateWindow"));
  return Window(std::move(impl));
}

std::vector<InputEvent> Window::poll() {
  std::vector<InputEvent> out;
  SDL_Event e;
  while (SDL_PollEvent(&e) != 0) {
    InputEvent ev;
    switch (e.type) {
      case SDL_QUIT:
        ev.type = InputEvent::Type::quit;
        break;
      case SDL_KEYDOWN:
      case SDL_KEYUP:
        if (e.key.repeat != 0) continue;
        ev.type = e.type == SDL_KEYDOWN ? InputEvent::Type::key_down : InputEvent::Type::key_up;
        ev.key = key_of(e.key.keysym.scancode);
        if (ev.key == Key::none) continue;
        break;
      case SDL_MOUSEMOTION:
        ev.type = InputEvent::Type::mouse_move;
        ev.x = e.motion.x;
        ev.y = e.motion.y;
        ev.dx = e.motion.xrel;
        ev.dy = e.motion.yrel;
        break;
      case SDL_MOUSEBUTTONDOWN:
      case SDL_MOUSEBUTTONUP:
        ev.type = e.type == SDL_MOUSEBUTTONDOWN ? InputEvent::Type::mouse_down : InputEvent::Type::mouse_up;
        ev.x = e.button.x;
        ev.y = e.button.y;
        ev.button = e.button.button == SDL_BUTTON_LEFT ? 1 : e.button.button == SDL_BUTTON_RIGHT ? 3 : 2;
        break;
      case SDL_MOUSEWHEEL:
        ev.type = InputEvent::Type::wheel;
        ev.wheel = e.wheel.y;
        break;
      case SDL_WINDOWEVENT:
        if (e.window.event != SDL_WINDOWEVENT_SIZE_CHANGED) continue;
        ev.type = InputEvent::Type::resize;
        ev.x = e.window.data1;
        ev.y = e.window.data2;
        break;
      default:
        continue;
    }
    out.push_back(ev);
  }
  return out;
}

namespace {

// The framebuffer's RGBA bytes into the surface. The usual window format (X11: RGB888, i.e.
// 0x00RRGGBB words, bytes B G R X) is a byte swap the compiler vectorises (0.5 ms at 1920x1080
// where SDL_ConvertPixels' generic blitter takes 4); any other format goes through SDL.
int copy_to_surface(const render::Framebuffer& image, int w, int h, SDL_Surface& surface) {
  const auto format = surface.format->format;
  const auto* src = image.rgba_bytes().data();
  const std::size_t src_pitch = static_cast<std::size_t>(image.width()) * 4;
  if (SDL_BYTEORDER == SDL_LIL_ENDIAN && (format == SDL_PIXELFORMAT_RGB888 || format == SDL_PIXELFORMAT_ARGB8888)) {
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* in = src + static_cast<std::size_t>(y) * src_pitch;
      auto* out = static_cast<std::uint8_t*>(surface.pixels) + static_cast<std::ptrdiff_t>(y) * surface.pitch;
      for (int x = 0; x < w; ++x) {
        std::uint32_t p = 0;  // R G B A in memory: 0xAABBGGRR
        std::memcpy(&p, in + 4 * x, 4);
        const std::uint32_t q = (p & 0xff00ff00u) | ((p >> 16) & 0xffu) | ((p & 0xffu) << 16);  // 0xAARRGGBB
        std::memcpy(out + 4 * x, &q, 4);
      }
    }
    return 0;
  }
  return SDL_ConvertPixels(w, h, SDL_PIXELFORMAT_RGBA32, src, static_cast<int>(src_pitch), format, surface.pixels,
                           surface.pitch);
}

}  // namespace

core::Status Window::present(const render::Framebuffer& image) {
  SDL_Surface* surface = SDL_GetWindowSurface(impl_->window);
  if (surface == nullptr) return core::fail(sdl_error("SDL_GetWindowSurface"));
  const int w = std::min(surface->w, static_cast<int>(image.width()));
  const int h = std::min(surface->h, static_cast<int>(image.height()));
  if (w > 0 && h > 0) {
    if (SDL_MUSTLOCK(surface) && SDL_LockSurface(surface) != 0) return core::fail(sdl_error("SDL_LockSurface"));
    const int rc = copy_to_surface(image, w, h, *surface);
    if (SDL_MUSTLOCK(surface)) SDL_UnlockSurface(surface);
    if (rc != 0) return core::fail(sdl_error("SDL_ConvertPixels"));
  }
  if (SDL_UpdateWindowSurface(impl_->window) != 0) return core::fail(sdl_error("SDL_UpdateWindowSurface"));
  return {};
}

void Window::set_title(const std::string& title) {
  SDL_SetWindowTitle(impl_->window, title.c_str());
}

void Window::set_relative_mouse(bool on) {
  SDL_SetRelativeMouseMode(on ? SDL_TRUE : SDL_FALSE);
}

}  // namespace sortie::viewer
