// MISSIONS/<m>/mission.lua in the format table: sortie's own mission scripts (docs/mission-scripts.md,
// ADR 0016). The row checks what needs no Lua: source text (no NUL byte, not a precompiled chunk,
// one line ending style is not required) and keeps the bytes as they are, so a script round-trips
// byte for byte. Compiling it is the mission loader's (the mission_to_lua_script edge).
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "sortie/core/text.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::formats {

namespace {

using core::Diagnostic;

struct LuaText {
  std::string bytes;
};

int detect(core::ByteView, std::string_view file_name) {
  const auto dot = file_name.find_last_of('.');
  return dot != std::string_view::npos && core::iequals_ascii(file_name.substr(dot), ".lua") ? kDetectName
                                                                                             : kDetectNone;
}

core::Result<LuaText> read(core::ByteView data, const ReadOptions& options, core::Diagnostics*) {
  const std::string file = options.file_name.empty() ? std::string("mission.lua") : options.file_name;
  if (!data.empty() && data[0] == 0x1B)
    return core::fail(
        Diagnostic::error("mission_script.bytecode", "a precompiled Lua chunk; mission scripts are source")
            .of(file)
            .at(0)
            .expect("Lua source text", "ESC (0x1b)"));
  const auto nul = std::find(data.begin(), data.end(), std::uint8_t{0});
  if (nul != data.end())
    return core::fail(Diagnostic::error("mission_script.nul", "a NUL byte in a script's text")
                          .of(file)
                          .at(static_cast<std::uint64_t>(nul - data.begin()))
                          .expect("text", "0x00"));
  return LuaText{std::string(core::as_chars(data))};
}

core::Json to_json(const LuaText& script) {
  const auto lines = std::count(script.bytes.begin(), script.bytes.end(), '\n');
  return core::Json{{"format", "mission_script"},
                    {"bytes", script.bytes.size()},
                    {"lines", lines + ((script.bytes.empty() || script.bytes.back() == '\n') ? 0 : 1)}};
}

core::Result<core::Bytes> write(const LuaText& script) {
  return core::Bytes(script.bytes.begin(), script.bytes.end());
}

constexpr iron3d::FormatAdapter<LuaText> kMissionScript{
    .name = "mission_script",
    .description = "sortie's own Lua mission script (MISSIONS/<m>/mission.lua; docs/mission-scripts.md)",
    .detect = &detect,
    .read = &read,
    .json = &to_json,
    .write = &write,
};

}  // namespace

FormatInfo mission_script_format_info() {
  return iron3d::format_info<LuaText, kMissionScript>();
}

}  // namespace sortie::formats
