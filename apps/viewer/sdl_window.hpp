#pragma once
// The window: opens it, turns SDL events into InputEvents, and blits a render::Framebuffer to
// the window surface (SDL_ConvertPixels + SDL_UpdateWindowSurface; no GPU API). The only file
// pair that includes SDL.
#include <memory>
#include <string>
#include <vector>

#include "input.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/render/framebuffer.hpp"

namespace sortie::viewer {

class Window {
 public:
  // Errors: viewer.sdl (SDL_Init or the window failed; the message is SDL_GetError()).
  static core::Result<Window> open(const std::string& title, int width, int height);
  Window(Window&&) noexcept;
  Window& operator=(Window&&) noexcept;
  ~Window();

  // Events since the last call, in order.
  std::vector<InputEvent> poll();
  core::Status present(const render::Framebuffer& image);
  void set_title(const std::string& title);
  // Relative mouse mode (mouse look): the cursor is hidden and motion is unbounded.
  void set_relative_mouse(bool on);

 private:
  struct Impl;
  explicit Window(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sortie::viewer
