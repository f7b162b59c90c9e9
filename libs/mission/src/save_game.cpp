#include "sortie/mission/save_game.hpp"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <string_view>

#include "sortie/assets/sample_game.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"

#ifndef SORTIE_VERSION
#define SORTIE_VERSION "unknown"
#endif

namespace sortie::mission {
namespace {

core::Json body_of(const SaveGame& s) {
  return core::Json{{"format", "sortie-save"},
                    {"version", kSaveVersion},
                    {"build", s.build},
                    {"game", s.game},
                    {"sample_scale", s.sample_scale},
                    {"mission", s.mission},
                    {"seed", s.seed},
                    {"tick", s.tick},
                    {"state_hash", core::hash_hex(s.state_hash)}};
}

std::string checksum_of(const core::Json& body) {
  return core::hash_hex(core::hash64(body.dump()));
}

std::optional<std::uint64_t> parse_hex64(std::string_view s) {
  std::uint64_t v = 0;
  if (s.size() != 16) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

core::Diagnostic field_error(std::string_view field, std::string_view expected) {
  return core::Diagnostic::error("save.field", fmt::format("the save's '{}' is missing or not {}", field, expected));
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
  return core::write_file_atomic(path, core::dump_json(save_json(save)));
}

core::Result<SaveGame> save_from_json(const core::Json& j) {
  if (!j.is_object() || j.value("format", std::string()) != "sortie-save")
    return core::fail(core::Diagnostic::error("save.format", "not a sortie save (no \"format\": \"sortie-save\")"));
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != kSaveVersion)
    return core::fail(core::Diagnostic::error("save.version", "a save of another version")
                          .expect(std::to_string(kSaveVersion), j.contains("version") ? j["version"].dump() : "none"));
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
  if (s.build != save_build_id())
    return core::fail(core::Diagnostic::error("save.build", "the save was written by another build of sortie")
                          .expect(save_build_id(), s.build));
  return s;
}

core::Result<SaveGame> read_save(const std::filesystem::path& path) {
  auto text = core::read_text_file(path);
  if (!text) return core::fail(core::Diagnostic::error("save.read", text.error().message).of(path.string()));
  auto j = core::Json::parse(*text, nullptr, false);
  if (j.is_discarded()) return core::fail(core::Diagnostic::error("save.json", "not JSON").of(path.string()));
  auto save = save_from_json(j);
  if (!save) return core::fail(std::move(save.error()).of(path.string()));
  return save;
}

}  // namespace sortie::mission
