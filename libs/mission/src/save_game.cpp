#include "sortie/mission/save_game.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <string_view>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/mission/limits.hpp"
#include "sortie/mission/save_image.hpp"

#ifndef SORTIE_VERSION
#define SORTIE_VERSION "unknown"
#endif

namespace sortie::mission {
namespace {

core::Json actions_json(const std::vector<PlayAction>& actions) {
  core::Json out = core::Json::array();
  for (const auto& a : actions) out.push_back(action_json(a));
  return out;
}

core::Json body_of(const SaveGame& s) {
  return core::Json{{"format", "sortie-save"},
                    {"version", kSaveVersion},
                    {"build", s.build},
                    {"game", s.game},
                    {"sample_scale", s.sample_scale},
                    {"mission", s.mission},
                    {"seed", s.seed},
                    {"tick", s.tick},
                    {"state_hash", core::hash_hex(s.state_hash)},
                    {"mode", s.mode == SaveMode::play ? "play" : "run"},
                    {"actions", actions_json(s.actions)},
                    {"image", s.image}};
}

std::string checksum_of(const core::Json& body) {
  return core::hash_hex(core::hash64(body.dump(-1, ' ', false, core::Json::error_handler_t::replace)));
}

core::Diagnostic field_error(std::string_view field, std::string_view expected) {
  return core::Diagnostic::error("save.field", fmt::format("the save's '{}' is missing or not {}", field, expected));
}

core::Diagnostic limit_error(std::string_view what, std::uint64_t limit, std::uint64_t found) {
  return core::Diagnostic::error("save.limit", fmt::format("the save's {} is over the limit", what))
      .expect(fmt::format("at most {}", limit), std::to_string(found));
}

core::Status check_save_limits(const SaveGame& s) {
  if (s.actions.size() > kMaxSaveActions)
    return core::fail(limit_error("action count", kMaxSaveActions, s.actions.size()));
  for (const auto& [name, value] : {std::pair{"build", &s.build}, std::pair{"game", &s.game},
                                    std::pair{"sample_scale", &s.sample_scale}, std::pair{"mission", &s.mission}}) {
    if (value->size() > kMaxSaveTextBytes)
      return core::fail(limit_error(fmt::format("'{}' text", name), kMaxSaveTextBytes, value->size()));
  }
  return check_save_image(s.image);
}

}  // namespace

std::string save_build_id() {
  return fmt::format("sortie {}; sample generator {}; save {}", SORTIE_VERSION, assets::kSampleGeneratorVersion,
                     kSaveVersion);
}

core::Json save_json(const SaveGame& save) {
  core::Json j = body_of(save);
  j["checksum"] = checksum_of(j);
  return j;
}

core::Status write_save(const std::filesystem::path& path, const SaveGame& save) {
  SORTIE_CHECK(check_save_limits(save));  // never write what read_save refuses
  const std::string text = core::dump_json(save_json(save), /*pretty=*/false);
  if (text.size() > kMaxSaveFileBytes)
    return core::fail(limit_error("file", kMaxSaveFileBytes, text.size()).of(path.string()));
  return core::write_file_atomic(path, text);
}

core::Result<SaveGame> save_from_json(const core::Json& j) {
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != "sortie-save")
    return core::fail(core::Diagnostic::error("save.format", "not a sortie save (no \"format\": \"sortie-save\")"));
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<std::int64_t>() != kSaveVersion)
    return core::fail(core::Diagnostic::error("save.version", "a save of another version")
                          .expect(std::to_string(kSaveVersion), j.contains("version") ? j["version"].dump() : "none"));
  if (j.contains("actions") && j["actions"].is_array() && j["actions"].size() > kMaxSaveActions)
    return core::fail(limit_error("action count", kMaxSaveActions, j["actions"].size()));
  if (j.contains("image")) SORTIE_CHECK(check_save_image(j["image"]));
  core::Json body = j;
  body.erase("checksum");
  if (!j.contains("checksum") || !j["checksum"].is_string() || j["checksum"].get<std::string>() != checksum_of(body))
    return core::fail(
        core::Diagnostic::error("save.checksum", "the save is damaged: its content does not match its checksum"));
  SaveGame s;
  const auto text = [&](const char* key, std::string& out) -> core::Status {
    if (!j.contains(key) || !j[key].is_string()) return core::fail(field_error(key, "a string"));
    out = j[key].get<std::string>();
    return {};
  };
  const auto number = [&](const char* key, std::uint64_t& out) -> core::Status {
    if (!j.contains(key) || !j[key].is_number_unsigned()) return core::fail(field_error(key, "an unsigned integer"));
    out = j[key].get<std::uint64_t>();
    return {};
  };
  SORTIE_CHECK(text("build", s.build));
  SORTIE_CHECK(text("game", s.game));
  SORTIE_CHECK(text("sample_scale", s.sample_scale));
  SORTIE_CHECK(text("mission", s.mission));
  SORTIE_CHECK(number("seed", s.seed));
  SORTIE_CHECK(number("tick", s.tick));
  std::string hash;
  SORTIE_CHECK(text("state_hash", hash));
  const auto parsed = parse_hex64(hash);
  if (!parsed) return core::fail(field_error("state_hash", "16 hex digits"));
  s.state_hash = *parsed;
  std::string mode;
  SORTIE_CHECK(text("mode", mode));
  if (mode != "run" && mode != "play") return core::fail(field_error("mode", "run or play"));
  s.mode = mode == "play" ? SaveMode::play : SaveMode::run;
  if (!j.contains("actions") || !j["actions"].is_array()) return core::fail(field_error("actions", "an array"));
  for (const auto& a : j["actions"]) {
    SORTIE_TRY(auto action, action_from_json(a));
    if (action.tick > s.tick || (!s.actions.empty() && action.tick < s.actions.back().tick))
      return core::fail(field_error("actions", "in tick order, none after the save's tick"));
    s.actions.push_back(std::move(action));
  }
  if (s.mode == SaveMode::run && !s.actions.empty()) return core::fail(field_error("actions", "empty in a run save"));
  if (!j.contains("image")) return core::fail(field_error("image", "an object"));
  s.image = j["image"];
  SORTIE_CHECK(check_save_limits(s));
  if (s.build != save_build_id())
    return core::fail(core::Diagnostic::error("save.build", "the save was written by another build of sortie")
                          .expect(save_build_id(), s.build));
  return s;
}

SaveGame play_save(const PlaySession& play, std::string game, std::string sample_scale, std::string mission,
                   std::uint64_t seed) {
  SaveGame s;
  s.build = save_build_id();
  s.game = std::move(game);
  s.sample_scale = std::move(sample_scale);
  s.mission = std::move(mission);
  s.seed = seed;
  s.tick = play.tick_number();
  s.state_hash = play.state_hash();
  s.mode = SaveMode::play;
  s.actions = play.actions();
  s.image = save_image(play.world(), play.runtime());
  return s;
}

namespace {

core::Status load_again(GameContext& context, const std::string& mission, std::uint64_t seed) {
  MissionLoadOptions lo;
  lo.world.seed = seed;
  SORTIE_TRY(auto report, context.load(mission, lo));
  if (!report.ok)
    return core::fail(core::Diagnostic::error(
        "load.failed", fmt::format("load of {} failed: {}", mission,
                                   report.failures.empty() ? std::string("?") : report.failures.front().to_string())));
  if (context.current() == nullptr)
    return core::fail(core::Diagnostic::error("load.failed", "no mission after the load"));
  return {};
}

}  // namespace

core::Result<std::unique_ptr<PlaySession>> resume_play(GameContext& context, const SaveGame& save,
                                                       const std::string& mission, const PlayOptions& options) {
  if (save.mode != SaveMode::play)
    return core::fail(core::Diagnostic::error("save.game", "a save of a headless run (sortie run --load resumes it)"));
  if (save.mission != mission)
    return core::fail(
        core::Diagnostic::error("save.game", "the save is of another mission").expect(mission, save.mission));
  SORTIE_CHECK(load_again(context, save.mission, save.seed));
  return replay_play(*context.current(), options, save.actions, save.tick, save.state_hash, &save.image);
}

core::Result<std::unique_ptr<PlaySession>> restart_play(GameContext& context, const std::string& mission,
                                                        std::uint64_t seed, const PlayOptions& options) {
  SORTIE_CHECK(load_again(context, mission, seed));
  return PlaySession::start(*context.current(), options);
}

std::size_t json_text_depth(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return limit + 1;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

core::Json save_show_json(const SaveGame& save) {
  core::Json header = body_of(save);
  header.erase("image");
  header["checksum"] = save_json(save)["checksum"];
  return core::Json{{"save", std::move(header)}, {"image", save_image_summary(save.image)}};
}

std::string save_show_text(const SaveGame& save) {
  const core::Json j = save_show_json(save);
  const core::Json& h = j["save"];
  const core::Json& im = j["image"];
  std::string out =
      fmt::format("save version {} ({}), build \"{}\"\n", kSaveVersion, h["mode"].get<std::string>(), save.build);
  out += fmt::format("game: {}\nmission: {}\nseed: {}\ntick: {}\nstate hash: {}\nactions: {}\n",
                     save.game.empty() ? "embedded " + save.sample_scale + " sample" : save.game, save.mission,
                     save.seed, save.tick, h["state_hash"].get<std::string>(), save.actions.size());
  const core::Json& clock = im["clock"];
  if (clock.is_array() && clock.size() == 6)
    out += fmt::format("clock: tick {}, step {} us, game time {} us, scale {}/1000{}\n", clock[0].dump(),
                       clock[1].dump(), clock[2].dump(), clock[4].dump(), clock[5] == 1 ? ", paused" : "");
  out += fmt::format("objects: {}\n", im["objects"].dump());
  for (const auto& [name, n] : im["objects_by_class"].items()) out += fmt::format("  class {}: {}\n", name, n.dump());
  for (const auto& [clan, n] : im["objects_by_clan"].items()) out += fmt::format("  clan {}: {}\n", clan, n.dump());
  out += fmt::format("pending: {} command(s), {} event(s), {} deletion(s)\n", im["pending_commands"].dump(),
                     im["pending_events"].dump(), im["deferred_deletions"].dump());
  if (im.contains("scenario_state") && im["scenario_state"].is_object()) {
    const core::Json& st = im["scenario_state"];
    if (st.contains("outcome")) out += fmt::format("outcome: {}\n", st["outcome"].dump());
    if (st.contains("objectives") && st["objectives"].is_array())
      for (const core::Json& o : st["objectives"])
        if (o.is_array() && o.size() == 4) out += fmt::format("  objective {}: {}\n", o[0].dump(), o[2].dump());
  }
  for (const core::Json& p : im["scenario_parts"]) {
    out += fmt::format("part {}{}", p["name"].get<std::string>(), p["running"] == true ? "" : " (stopped)");
    if (p.contains("orders")) out += fmt::format(", orders {}", p["orders"].dump());
    if (p.contains("globals")) out += fmt::format(", {} global(s)", p["globals"].dump());
    if (p.contains("timers")) out += fmt::format(", {} timer(s)", p["timers"].dump());
    out += "\n";
  }
  return out;
}

core::Result<SaveGame> read_save(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxSaveFileBytes)
    return core::fail(limit_error("file", kMaxSaveFileBytes, size).of(path.string()));
  auto text = core::read_text_file(path, kMaxSaveFileBytes);
  if (!text) return core::fail(core::Diagnostic::error("save.read", text.error().message).of(path.string()));
  if (const std::size_t depth = json_text_depth(*text, kMaxSaveDepth); depth > kMaxSaveDepth)
    return core::fail(limit_error("nesting depth", kMaxSaveDepth, depth).of(path.string()));
  auto j = core::Json::parse(*text, nullptr, false);
  if (j.is_discarded()) return core::fail(core::Diagnostic::error("save.json", "not JSON").of(path.string()));
  auto save = save_from_json(j);
  if (!save) return core::fail(std::move(save.error()).of(path.string()));
  return save;
}

}  // namespace sortie::mission
