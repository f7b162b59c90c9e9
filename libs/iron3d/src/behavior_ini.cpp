// Behavior.ini reader (spec §21.1): key = value lines with // comments and CRLF, kept line by
// line so writing is exact; typed values for the keys Behavior.dll reads.
#include "sortie/iron3d/behavior_ini.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

#include "asset_util.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {

using T = BehaviorValueType;

constexpr std::array<BehaviorKeyInfo, 25> kKeys = {{
    {"LogFile", T::text, "log file name"},
    {"SaveLog", T::integer, "write the log file (0/1)"},
    {"MaxErrorLevel", T::integer, "highest error level logged"},
    {"DefErrorLevel", T::integer, "default error level"},
    {"LookBugMode", T::integer, "debug switch"},
    {"ShowVectors", T::integer, "draw movement vectors (debug)"},
    {"NoZBuffer", T::integer, "debug drawing without the z-buffer"},
    {"LockBehaviour", T::integer, "freeze behaviours (debug)"},
    {"UseDebugKey", T::integer, "enable the debug key"},
    {"GiveDefaultOrder", T::integer, "give units a default order"},
    {"DefaultOrderPhase", T::integer, "phase of the default order"},
    {"DeterminMode", T::integer, "deterministic mode switch"},
    {"ImmortalHero", T::integer, "hero cannot die (debug)"},
    {"UseWizard", T::integer, "use the Wizard trajectory correction"},
    {"PathFind_BuildingHitDist", T::number, "distance at which a building counts as hit"},
    {"PathFind_BuildingNearestDist", T::number, "distance at which a building slows a unit"},
    {"PathFind_NearBuildSpeedPercent", T::number, "speed near buildings, percent"},
    {"PathFind_CorridorRadius", T::number, "half width of the local corridor"},
    {"PathFind_NearDoorCoeff", T::number, "coefficient near doors"},
    {"PathFind_fStepOffBuilding", T::number, "step taken away from a building"},
    {"PathFind_MaxAccel", T::number, "maximum acceleration"},
    {"PathFind_MaxRotation", T::number, "maximum rotation rate"},
    {"PathFind_fStepDist", T::number, "trajectory discretisation step"},
    {"PathFind_MinPointInTrajectory", T::integer, "minimum points in a trajectory"},
    {"Network_ResourceTransferMaxDelay", T::integer, "resource transfer timeout"},
}};

bool key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '-' || c == ' ';
}

bool control_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7F;
}

// Offset of the first "//" outside double quotes, npos when none.
std::size_t comment_start(std::string_view s) {
  bool quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') quoted = !quoted;
    if (!quoted && s[i] == '/' && i + 1 < s.size() && s[i + 1] == '/') return i;
  }
  return std::string_view::npos;
}

std::optional<double> parse_typed(BehaviorValueType type, std::string_view text) {
  if (text.empty()) return std::nullopt;
  const char* b = text.data();
  const char* e = b + text.size();
  if (type == T::integer) {
    std::int64_t v = 0;
    if (*b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, v);
    if (ec != std::errc() || p != e || v < std::numeric_limits<std::int32_t>::min() ||
        v > std::numeric_limits<std::int32_t>::max())
      return std::nullopt;
    return static_cast<double>(v);
  }
  if (type == T::number) {
    if (*b == '+') ++b;
    double v = 0.0;
    auto [p, ec] = std::from_chars(b, e, v, std::chars_format::general);
    if (ec != std::errc() || p != e || !std::isfinite(v)) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_string(BehaviorValueType type) {
  switch (type) {
    case T::integer:
      return "integer";
    case T::number:
      return "number";
    case T::text:
      return "text";
  }
  return "text";
}

std::span<const BehaviorKeyInfo> behavior_ini_keys() {
  return kKeys;
}

const BehaviorKeyInfo* find_behavior_key(std::string_view name) {
  for (const auto& k : kKeys)
    if (core::iequals_ascii(k.name, name)) return &k;
  return nullptr;
}

const BehaviorIniEntry* BehaviorIni::find(std::string_view key) const {
  for (const auto& e : entries)
    if (e.effective && core::iequals_ascii(e.key, key)) return &e;
  return nullptr;
}

std::optional<double> BehaviorIni::number(std::string_view key) const {
  const BehaviorIniEntry* e = find(key);
  return e != nullptr ? e->number : std::nullopt;
}

core::Result<BehaviorIni> read_behavior_ini(core::ByteView data, const ReadOptions& options,
                                            core::Diagnostics* warnings) {
  const std::string_view text = core::as_chars(data);
  const std::string file = options.file_name.empty() ? "Behavior.ini" : options.file_name;
  BehaviorIni ini;
  std::string section;
  std::size_t start = 0;
  while (true) {
    const auto nl = text.find('\n', start);
    const std::string_view raw = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    const std::size_t index = ini.lines.size();
    ini.lines.emplace_back(raw);
    ini.kinds.push_back(BehaviorLineKind::blank);
    const std::string line_field = fmt::format("lines[{}]", index);
    auto located = [&](std::string code, std::string message, std::string field, std::string expected) {
      return Diagnostic::error(std::move(code), fmt::format("line {}: {}", index + 1, message))
          .of(file)
          .at(start)
          .in(std::move(field))
          .expect(std::move(expected), std::string(core::trim(raw)));
    };
    auto soft = [&](Diagnostic d) {
      ini.kinds.back() = BehaviorLineKind::invalid;
      return detail::soft_fail(options, warnings, std::move(d));
    };

    std::string_view s = raw;
    const std::size_t comment = comment_start(s);
    if (comment != std::string_view::npos) s = s.substr(0, comment);
    s = core::trim(s);
    if (s.empty()) {
      ini.kinds.back() = comment != std::string_view::npos ? BehaviorLineKind::comment : BehaviorLineKind::blank;
    } else if (s.front() == '[') {
      const std::string_view name = s.size() >= 2 && s.back() == ']' ? core::trim(s.substr(1, s.size() - 2)) : "";
      if (name.empty() || name.find_first_of("[]") != std::string_view::npos) {
        SORTIE_CHECK(soft(located("behavior_ini.syntax", "a section header is [Name]", line_field, "[Name]")));
      } else {
        section = std::string(name);
        ini.kinds.back() = BehaviorLineKind::section;
      }
    } else if (const auto eq = s.find('='); eq != std::string_view::npos) {
      const std::string_view key = core::trim(s.substr(0, eq));
      const std::string_view value = core::trim(s.substr(eq + 1));
      const std::string field = fmt::format("entries[{}]", ini.entries.size());
      bool ok = true;
      if (key.empty()) {
        SORTIE_CHECK(soft(located("behavior_ini.syntax", "an entry without a key", field + ".key", "Key = Value")));
        ok = false;
      }
      for (char c : key) {
        if (!ok) break;
        if (!key_char(c)) {
          SORTIE_CHECK(soft(located("behavior_ini.character",
                                    fmt::format("byte 0x{:02x} is not allowed in a key", static_cast<unsigned char>(c)),
                                    field + ".key", "A-Z a-z 0-9 _ . - and spaces")));
          ok = false;
        }
      }
      for (char c : value) {
        if (!ok) break;
        if (control_char(c)) {
          SORTIE_CHECK(soft(located("behavior_ini.character",
                                    fmt::format("control byte 0x{:02x} in a value", static_cast<unsigned char>(c)),
                                    field + ".value", "printable text")));
          ok = false;
        }
      }
      std::string_view inner = value;
      if (ok && !value.empty() && value.front() == '"') {
        if (value.size() < 2 || value.back() != '"' ||
            value.substr(1, value.size() - 2).find('"') != std::string_view::npos) {
          SORTIE_CHECK(soft(located("behavior_ini.quote", "the value opens a double quote it does not close",
                                    field + ".value", "\"text\"")));
          ok = false;
        } else {
          inner = value.substr(1, value.size() - 2);
        }
      }
      if (ok) {
        if (ini.entries.size() >= kBehaviorIniMaxEntries)
          return core::fail(located("behavior_ini.limit", "more entries than the reader's limit", field,
                                    fmt::format("<= {} entries", kBehaviorIniMaxEntries)));
        BehaviorIniEntry e;
        e.line = index;
        e.offset = start;
        e.section = section;
        e.key = std::string(key);
        e.raw_value = std::string(value);
        e.value = std::string(inner);
        const BehaviorKeyInfo* info = find_behavior_key(key);
        e.known = info != nullptr;
        for (const auto& prev : ini.entries) {
          if (prev.effective && core::iequals_ascii(prev.key, e.key)) {
            e.effective = false;
            if (warnings)
              warnings->push_back(
                  Diagnostic::warning("behavior_ini.key_duplicate",
                                      fmt::format("line {}: '{}' repeats the key of line {}; the first one "
                                                  "counts",
                                                  index + 1, e.key, prev.line + 1))
                      .of(file)
                      .at(start)
                      .in(field + ".key"));
            break;
          }
        }
        if (info == nullptr && warnings)
          warnings->push_back(Diagnostic::warning("behavior_ini.key_unknown",
                                                  fmt::format("line {}: unknown key '{}' (kept)", index + 1, e.key))
                                  .of(file)
                                  .at(start)
                                  .in(field + ".key"));
        if (info != nullptr && info->type != T::text) {
          e.number = parse_typed(info->type, e.value);
          if (!e.number) {
            SORTIE_CHECK(
                soft(located("behavior_ini.value",
                             fmt::format("'{}' is not a valid {} for {}", e.value, to_string(info->type), info->name),
                             field + ".value", info->type == T::integer ? "decimal i32" : "finite decimal number")));
          }
        }
        ini.kinds.back() = BehaviorLineKind::entry;
        ini.entries.push_back(std::move(e));
      }
    } else {
      SORTIE_CHECK(soft(
          located("behavior_ini.syntax", "a line is a comment, [Section] or Key = Value", line_field, "Key = Value")));
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return ini;
}

core::Bytes write_behavior_ini(const BehaviorIni& ini) {
  core::ByteWriter w;
  for (std::size_t i = 0; i < ini.lines.size(); ++i) {
    if (i) w.u8('\n');
    w.bytes(ini.lines[i]);
  }
  return w.take();
}

core::Result<BehaviorIni> build_behavior_ini(const std::vector<std::pair<std::string, std::string>>& values) {
  std::string text = "// Behavior.ini written by sortie\r\n";
  for (const auto& [key, value] : values) text += fmt::format("{}={}\r\n", key, value);
  return read_behavior_ini(core::as_bytes(text));
}

core::Json behavior_ini_json(const BehaviorIni& ini) {
  core::Json j;
  j["format"] = "behavior_ini";
  core::Json entries = core::Json::array();
  for (const auto& e : ini.entries) {
    core::Json o;
    o["line"] = e.line + 1;
    if (!e.section.empty()) o["section"] = core::legacy_text_json(e.section);
    o["key"] = core::legacy_text_json(e.key);
    o["raw"] = core::legacy_text_json(e.raw_value);
    o["value"] = core::legacy_text_json(e.value);
    o["known"] = e.known;
    o["effective"] = e.effective;
    if (const auto* info = find_behavior_key(e.key)) o["type"] = std::string(to_string(info->type));
    if (e.number) o["number"] = *e.number;
    entries.push_back(std::move(o));
  }
  j["entries"] = std::move(entries);
  // Every key Behavior.dll reads, with its effective value or null when absent.
  core::Json params = core::Json::object();
  for (const auto& k : kKeys) {
    const BehaviorIniEntry* e = ini.find(k.name);
    if (e == nullptr) {
      params[std::string(k.name)] = nullptr;
    } else if (k.type == T::text) {
      params[std::string(k.name)] = core::legacy_text_json(e->value);
    } else if (e->number) {
      params[std::string(k.name)] = *e->number;
    } else {
      params[std::string(k.name)] = nullptr;
    }
  }
  j["parameters"] = std::move(params);
  j["lines"] = ini.lines.size();
  return j;
}

namespace {

int detect(core::ByteView, std::string_view file_name) {
  const auto slash = file_name.find_last_of("/\\");
  const auto base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  return core::iequals_ascii(base, "Behavior.ini") ? 2 : 0;
}

constexpr FormatAdapter<BehaviorIni> kBehaviorIniFormat{
    .name = "behavior_ini",
    .description = "Behavior.ini: Behavior.dll switches and the PathFind_* / Network_* parameters",
    .detect = &detect,
    .read = &read_behavior_ini,
    .json = &behavior_ini_json,
    .write = [](const BehaviorIni& b) -> core::Result<core::Bytes> { return write_behavior_ini(b); },
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

FormatInfo behavior_ini_format_info() {
  return format_info<BehaviorIni, kBehaviorIniFormat>();
}

}  // namespace sortie::iron3d
