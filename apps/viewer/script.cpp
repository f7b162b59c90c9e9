#include "script.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string>

namespace sortie::viewer {
namespace {

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

template <class T>
bool number(std::string_view s, T& v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

Key key_named(std::string_view s) {
  // clang-format off
  static constexpr std::pair<std::string_view, Key> kKeys[] = {
      {"w", Key::w},     {"a", Key::a},           {"s", Key::s},         {"d", Key::d},
      {"q", Key::q},     {"e", Key::e},           {"shift", Key::shift}, {"space", Key::space},
      {"f12", Key::f12}, {"escape", Key::escape}, {"tab", Key::tab},
      {"left", Key::left}, {"right", Key::right}, {"up", Key::up}, {"down", Key::down}, {"home", Key::home},
      {"1", Key::digit1}, {"2", Key::digit2}, {"3", Key::digit3},
      {"o", Key::o},       {"p", Key::p},         {"n", Key::n},      {"r", Key::r},
      {"4", Key::digit4}, {"5", Key::digit5}, {"6", Key::digit6}, {"7", Key::digit7}, {"8", Key::digit8},
      {"9", Key::digit9}, {"ctrl", Key::ctrl}, {"enter", Key::enter}, {"f", Key::f}, {"f5", Key::f5},
      {"f9", Key::f9}, {"plus", Key::plus}, {"minus", Key::minus}};
  // clang-format on
  for (const auto& [name, key] : kKeys)
    if (name == s) return key;
  return Key::none;
}

}  // namespace

core::Result<std::vector<ScriptedEvent>> parse_script(std::string_view text, std::string_view file) {
  std::vector<ScriptedEvent> out;
  std::size_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const auto w = words(line);
    if (w.empty()) {
      if (end == text.size()) break;
      continue;
    }
    auto bad = [&](const std::string& what) {
      return core::fail(
          core::Diagnostic::error("viewer.script", what).of(std::string(file)).in(fmt::format("line {}", line_no)));
    };
    ScriptedEvent se;
    if (w.size() < 2 || !number(w[0], se.frame)) return bad("expected FRAME EVENT ...");
    InputEvent& ev = se.event;
    const std::string_view kind = w[1];
    auto ints = [&](std::size_t n, std::initializer_list<int*> dst) {
      if (w.size() != 2 + n) return false;
      std::size_t k = 2;
      for (int* d : dst)
        if (!number(w[k++], *d)) return false;
      return true;
    };
    if (kind == "key_down" || kind == "key_up") {
      ev.type = kind == "key_down" ? InputEvent::Type::key_down : InputEvent::Type::key_up;
      ev.key = w.size() == 3 ? key_named(w[2]) : Key::none;
      if (ev.key == Key::none) return bad("unknown key");
      out.push_back(se);
    } else if (kind == "mouse_move") {
      ev.type = InputEvent::Type::mouse_move;
      if (!ints(2, {&ev.dx, &ev.dy})) return bad("mouse_move DX DY");
      out.push_back(se);
    } else if (kind == "mouse_down" || kind == "mouse_up") {
      ev.type = kind == "mouse_down" ? InputEvent::Type::mouse_down : InputEvent::Type::mouse_up;
      if (!ints(3, {&ev.x, &ev.y, &ev.button}) || ev.button < 1 || ev.button > 3)
        return bad(std::string(kind) + " X Y BUTTON");
      out.push_back(se);
    } else if (kind == "click") {
      ev.type = InputEvent::Type::mouse_down;
      ev.button = 1;
      if (!ints(2, {&ev.x, &ev.y})) return bad("click X Y");
      out.push_back(se);
      se.event.type = InputEvent::Type::mouse_up;
      out.push_back(se);
    } else if (kind == "wheel") {
      ev.type = InputEvent::Type::wheel;
      if (!ints(1, {&ev.wheel})) return bad("wheel N");
      out.push_back(se);
    } else {
      return bad(fmt::format("unknown event '{}'", kind));
    }
    if (end == text.size()) break;
  }
  return out;
}

}  // namespace sortie::viewer
