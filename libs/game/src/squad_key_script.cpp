#include "sortie/game/squad_key_script.hpp"

#include <fmt/format.h>

#include <charconv>

#include "sortie/core/file_io.hpp"

namespace sortie::game {

namespace {

bool set_key(SquadKeys& k, std::string_view name) {
  struct Named {
    std::string_view name;
    bool SquadKeys::*key;
  };
  static constexpr Named kKeys[] = {
      {"w", &SquadKeys::up},          {"a", &SquadKeys::left},          {"s", &SquadKeys::down},
      {"d", &SquadKeys::right},       {"shift", &SquadKeys::sprint},    {"space", &SquadKeys::manual},
      {"left", &SquadKeys::aim_left}, {"right", &SquadKeys::aim_right}, {"tab", &SquadKeys::cycle},
      {"1", &SquadKeys::wedge},       {"2", &SquadKeys::line},          {"3", &SquadKeys::ring},
      {"o", &SquadKeys::overlay},     {"p", &SquadKeys::pause},         {"n", &SquadKeys::step},
      {"r", &SquadKeys::restart},
  };
  for (const Named& n : kKeys) {
    if (n.name == name) {
      k.*n.key = true;
      return true;
    }
  }
  return false;
}

void merge(SquadKeys& into, const SquadKeys& k) {
  into.up |= k.up;
  into.left |= k.left;
  into.down |= k.down;
  into.right |= k.right;
  into.sprint |= k.sprint;
  into.manual |= k.manual;
  into.aim_left |= k.aim_left;
  into.aim_right |= k.aim_right;
  into.cycle |= k.cycle;
  into.wedge |= k.wedge;
  into.line |= k.line;
  into.ring |= k.ring;
  into.overlay |= k.overlay;
  into.pause |= k.pause;
  into.step |= k.step;
  into.restart |= k.restart;
}

bool parse_u64(std::string_view s, std::uint64_t& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size() && !s.empty();
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > b) out.push_back(line.substr(b, i - b));
  }
  return out;
}

}  // namespace

SquadKeys SquadKeyScript::keys_at(std::uint64_t frame) const {
  SquadKeys k;
  for (const KeyScriptEntry& e : entries) {
    if (e.shot.empty() && frame >= e.from && frame <= e.to) merge(k, e.keys);
  }
  return k;
}

std::vector<std::string> SquadKeyScript::shots_at(std::uint64_t frame) const {
  std::vector<std::string> out;
  for (const KeyScriptEntry& e : entries) {
    if (!e.shot.empty() && e.from == frame) out.push_back(e.shot);
  }
  return out;
}

std::uint64_t SquadKeyScript::length() const {
  std::uint64_t n = 0;
  for (const KeyScriptEntry& e : entries) n = std::max(n, e.to + 1);
  return n;
}

core::Result<SquadKeyScript> parse_key_script(std::string_view text, std::string_view file) {
  SquadKeyScript script;
  int line_no = 0;
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
    const auto fail = [&](std::string code, std::string what, std::string expected, std::string found) {
      return core::fail(core::Diagnostic::error(std::move(code), fmt::format("{}:{}: {}", file, line_no, what))
                            .of(std::string(file))
                            .expect(std::move(expected), std::move(found)));
    };
    KeyScriptEntry e;
    e.line = line_no;
    const std::string_view range = w[0];
    const auto dash = range.find('-');
    const bool ok = dash == std::string_view::npos
                        ? parse_u64(range, e.from) && (e.to = e.from, true)
                        : parse_u64(range.substr(0, dash), e.from) && parse_u64(range.substr(dash + 1), e.to);
    if (!ok || e.to < e.from || e.to >= kKeyScriptFramesMax) {
      return fail("game.script.frames", "bad frame or frame range",
                  fmt::format("FRAME or FROM-TO, 0 .. {}", kKeyScriptFramesMax - 1), std::string(range));
    }
    if (w.size() >= 2 && w[1] == "shot") {
      if (w.size() != 3 || dash != std::string_view::npos) {
        return fail("game.script.shot", "shot takes one frame and one file name", "FRAME shot FILE", std::string(line));
      }
      e.shot = std::string(w[2]);
      script.entries.push_back(std::move(e));
      continue;
    }
    if (w.size() < 2) return fail("game.script.empty", "a frame without keys", "FRAMES KEY...", std::string(line));
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (!set_key(e.keys, w[i])) {
        return fail("game.script.key", "unknown key", "w a s d shift space left right tab 1 2 3 o p n r",
                    std::string(w[i]));
      }
    }
    script.entries.push_back(std::move(e));
  }
  return script;
}

core::Result<SquadKeyScript> load_key_script(const std::filesystem::path& path) {
  SORTIE_TRY(const core::Bytes bytes, core::read_file(path, kKeyScriptFileMax));
  return parse_key_script(core::as_chars(bytes), path.string());
}

}  // namespace sortie::game
