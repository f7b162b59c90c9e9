// mission.cfg -> AmbientMusicConfig: the loop block's THEME and library, the variation block's
// three numbered pools and LIBRARY (docs/mission-cfg.md).
#include "sortie/env/mission_music.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <map>
#include <string>

#include "sortie/core/text.hpp"

namespace sortie::env {
namespace {

using core::Diagnostic;
using iron3d::MissionCfgLine;
using iron3d::MissionCfgObject;

bool is_block(const MissionCfgObject& o, std::string_view name) {
  if (core::iequals_ascii(o.name(), name)) return true;
  const auto desc = o.desc();
  return desc && core::iequals_ascii(*desc, name);
}

std::string utf8(std::string_view cp1251) {
  return core::cp1251_to_utf8(cp1251).utf8;
}

class Builder {
 public:
  Builder(const iron3d::MissionConfig& config, std::string_view file) : config_(config), file_(file) {}

  MissionAmbientMusic run() {
    const MissionCfgObject* loop = nullptr;
    const MissionCfgObject* variation = nullptr;
    for (const auto& o : config_.objects) {
      const bool is_loop = is_block(o, kAmbientMusicLoopBlock);
      if (!is_loop && !is_block(o, kAmbientMusicVariationBlock)) continue;
      const MissionCfgObject*& first = is_loop ? loop : variation;
      if (first == nullptr) {
        first = &o;
        continue;
      }
      warn(is_loop ? "ambient_music.loop_duplicate" : "ambient_music.variation_duplicate", o, o.open,
           fmt::format("a second '{}' block 'object {}' (line {}) is ignored; the one at line {} counts",
                       is_loop ? kAmbientMusicLoopBlock : kAmbientMusicVariationBlock, utf8(o.name()), o.open.number,
                       first->open.number));
    }
    out_.has_loop = loop != nullptr;
    out_.has_variations = variation != nullptr;
    std::optional<std::string> loop_library;
    if (loop != nullptr) {
      if (auto lib = loop->library()) loop_library = std::string(*lib);
      out_.config.theme.archive = loop_library.value_or(std::string());
      const MissionCfgLine* theme = loop->find("THEME");
      if (theme != nullptr && !theme->text().empty()) {
        out_.config.theme.name = std::string(theme->text());
      } else {
        warn("ambient_music.theme_missing", *loop, theme != nullptr ? *theme : loop->open,
             fmt::format("the loop block 'object {}' (line {}) has no THEME: no theme plays", utf8(loop->name()),
                         loop->open.number));
      }
    }
    if (variation != nullptr) {
      if (loop == nullptr)
        warn("ambient_music.loop_missing", *variation, variation->open,
             fmt::format("a variation block (line {}) but no '{}' block: variations come from the default library "
                         "unless LIBRARY names one",
                         variation->open.number, kAmbientMusicLoopBlock));
      if (auto lib = variation->library()) {
        out_.config.variation_library = std::string(*lib);
      } else {
        out_.config.variation_library = loop_library;
      }
      pool(*variation, "DEFAULT_VARIATION", "default", out_.config.default_pool);
      pool(*variation, "DAY_VARIATION", "day", out_.config.day_pool);
      pool(*variation, "NIGHT_VARIATION", "night", out_.config.night_pool);
    }
    return std::move(out_);
  }

 private:
  void warn(std::string code, const MissionCfgObject& o, const MissionCfgLine& line, std::string message) {
    const auto object_index = static_cast<std::size_t>(&o - config_.objects.data());
    std::string field = fmt::format("objects[{}]", object_index);
    if (&line >= o.lines.data() && &line < o.lines.data() + o.lines.size())
      field += fmt::format(".lines[{}]", &line - o.lines.data());
    Diagnostic d = Diagnostic::warning(std::move(code), fmt::format("line {}: {}", line.number, message))
                       .of(std::string(file_))
                       .in(std::move(field));
    if (line.number > 0) d.offset = line.offset;
    out_.warnings.push_back(std::move(d));
  }

  // PREFIX<n> fields: n = 1, 2, ... until the first missing or empty number.
  void pool(const MissionCfgObject& o, std::string_view prefix, std::string_view pool_name,
            std::vector<std::string>& out) {
    std::map<std::uint32_t, const MissionCfgLine*> numbered;
    for (const MissionCfgLine* f : o.fields()) {
      const std::string_view key = f->key;
      if (key.size() < prefix.size() || !core::iequals_ascii(key.substr(0, prefix.size()), prefix)) continue;
      const std::string_view digits = key.substr(prefix.size());
      std::uint32_t n = 0;
      const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
      if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size() || n == 0 ||
          digits.front() == '0') {
        warn("ambient_music.variation_key", o, *f,
             fmt::format("'{}' is ignored: {} pool keys are {}1, {}2, {}3 ...", utf8(key), pool_name, prefix, prefix,
                         prefix));
        continue;
      }
      auto [it, inserted] = numbered.emplace(n, f);
      if (!inserted)
        warn("ambient_music.variation_repeated", o, *f,
             fmt::format("'{}' repeats line {}; the first counts", utf8(key), it->second->number));
    }
    std::uint32_t next = 1;
    for (const auto& [n, f] : numbered) {
      if (n != next || f->text().empty()) break;
      out.emplace_back(f->text());
      ++next;
    }
    if (out.size() == numbered.size()) return;
    // Keys past the end of the pool: one warning at the first of them.
    const auto first_ignored = numbered.find(static_cast<std::uint32_t>(out.size()) + 1);
    const MissionCfgLine& at =
        first_ignored != numbered.end() ? *first_ignored->second : *numbered.upper_bound(next)->second;
    const bool empty = first_ignored != numbered.end();
    warn("ambient_music.variation_gap", o, at,
         fmt::format("{}{} is {}: the {} pool ends with {} {}; {} {} ignored", prefix, next,
                     empty ? "empty" : "missing", pool_name, out.size(), out.size() == 1 ? "entry" : "entries",
                     numbered.size() - out.size(), numbered.size() - out.size() == 1 ? "key is" : "keys are"));
  }

  const iron3d::MissionConfig& config_;
  std::string_view file_;
  MissionAmbientMusic out_;
};

}  // namespace

MissionAmbientMusic ambient_music_from_mission_cfg(const iron3d::MissionConfig& config, std::string_view file) {
  return Builder(config, file).run();
}

std::optional<MissionAmbientMusic> ambient_music_from_mission(const assets::MissionData& mission) {
  if (!mission.mission_cfg) return std::nullopt;
  return ambient_music_from_mission_cfg(*mission.mission_cfg, mission.mission_cfg_path.path);
}

}  // namespace sortie::env
