// mission.cfg reader and writer (spec §21.5): `object <name>` ... `end` blocks of `key value`
// fields, comments and blank lines kept in place with their line endings, so writing is exact.
#include "sortie/iron3d/mission_cfg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "asset_util.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

using core::Diagnostic;
using Kind = MissionCfgLineKind;

namespace {

constexpr std::array<std::string_view, 4> kNamed = {"desc", "library", "libtype", "type"};

bool control_byte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\t') || u == 0x7F;
}

bool is_comment(std::string_view trimmed) {
  return trimmed.starts_with("//") || trimmed.starts_with(';') || trimmed.starts_with('#');
}

bool quotes_balanced(std::string_view s) {
  return std::count(s.begin(), s.end(), '"') % 2 == 0;
}

std::optional<std::int32_t> parse_i32(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+') ++b;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || v < std::numeric_limits<std::int32_t>::min() ||
      v > std::numeric_limits<std::int32_t>::max())
    return std::nullopt;
  return static_cast<std::int32_t>(v);
}

bool integer_key(std::string_view key) {
  return core::iequals_ascii(key, "type") || core::iequals_ascii(key, "libtype");
}

// Key = first token of the trimmed line, value = the rest, trimmed.
struct Split {
  std::string_view indent;
  std::string_view key;
  std::string_view value;
};

Split split(std::string_view line) {
  Split s;
  const auto b = line.find_first_not_of(core::kBlanks);
  if (b == std::string_view::npos) {
    s.indent = line;
    return s;
  }
  s.indent = line.substr(0, b);
  const std::string_view rest = core::trim(line.substr(b), core::kBlanks);
  const auto sep = rest.find_first_of(core::kBlanks);
  s.key = rest.substr(0, sep);
  if (sep != std::string_view::npos) s.value = core::trim(rest.substr(sep), core::kBlanks);
  return s;
}

std::string found_text(std::string_view s) {
  return core::cp1251_to_utf8(core::trim(s, core::kBlanks)).utf8;
}

// A field or object/end line is written as read while its key and value still match its raw
// text; otherwise canonically (indentation kept, key, one space, value).
void render(core::ByteWriter& w, const MissionCfgLine& line) {
  const bool structured = line.kind == Kind::field || line.kind == Kind::object || line.kind == Kind::end;
  if (!structured) {
    w.bytes(line.raw);
  } else {
    const Split s = split(line.raw);
    if (s.key == line.key && s.value == line.value) {
      w.bytes(line.raw);
    } else {
      w.bytes(s.indent);
      w.bytes(line.key);
      if (!line.value.empty()) {
        w.u8(' ');
        w.bytes(line.value);
      }
    }
  }
  w.bytes(line.ending);
}

class Reader {
 public:
  Reader(std::string_view text, const ReadOptions& options, core::Diagnostics* warnings)
      : text_(text),
        options_(options),
        warnings_(warnings),
        file_(options.file_name.empty() ? "mission.cfg" : options.file_name) {}

  core::Result<MissionConfig> run() {
    std::size_t start = 0;
    while (start < text_.size()) {
      const auto nl = text_.find('\n', start);
      std::size_t end = nl == std::string_view::npos ? text_.size() : nl;
      std::string_view ending;
      if (nl != std::string_view::npos) {
        ending = end > start && text_[end - 1] == '\r' ? "\r\n" : "\n";
        end -= ending.size() - 1;
      }
      if (++number_ > kMissionCfgMaxLines)
        return core::fail(
            Diagnostic::error("mission_cfg.limit", fmt::format("line {}: more lines than the reader's limit", number_))
                .of(file_)
                .at(start)
                .expect(fmt::format("<= {} lines", kMissionCfgMaxLines), "more"));
      if (end - start > kMissionCfgMaxLineBytes)  // before the line is copied anywhere
        return core::fail(
            Diagnostic::error("mission_cfg.limit", fmt::format("line {}: longer than the reader's limit", number_))
                .of(file_)
                .at(start)
                .in(place())
                .expect(fmt::format("<= {} bytes per line", kMissionCfgMaxLineBytes),
                        fmt::format("{} bytes", end - start)));
      SORTIE_CHECK(line(text_.substr(start, end - start), ending, start));
      start = nl == std::string_view::npos ? text_.size() : nl + 1;
    }
    if (current_) {
      const MissionCfgLine& open = current_->open;
      SORTIE_CHECK(soft(Diagnostic::error("mission_cfg.unterminated",
                                          fmt::format("line {}: the file ends inside the block 'object {}' "
                                                      "opened at line {}",
                                                      number_, found_text(open.value), open.number))
                            .of(file_)
                            .at(text_.size())
                            .in(fmt::format("objects[{}]", config_.objects.size()))
                            .expect("end", "end of file")));
      config_.objects.push_back(std::move(*current_));
      current_.reset();
    }
    config_.after = std::move(pending_);
    return std::move(config_);
  }

 private:
  Diagnostic located(std::size_t offset, std::string code, std::string_view message, std::string field,
                     std::string expected) const {
    return Diagnostic::error(std::move(code), fmt::format("line {}: {}", number_, message))
        .of(file_)
        .at(offset)
        .in(std::move(field))
        .expect(std::move(expected), found_text(line_text_));
  }

  core::Status soft(Diagnostic d) { return detail::soft_fail(options_, warnings_, std::move(d)); }

  // Field path of the line being read.
  std::string place() const {
    if (current_) return fmt::format("objects[{}].lines[{}]", config_.objects.size(), current_->lines.size());
    return fmt::format("lines[{}]", number_ - 1);
  }

  void keep(MissionCfgLine l) {
    if (current_) {
      current_->lines.push_back(std::move(l));
    } else {
      pending_.push_back(std::move(l));
    }
  }

  // A malformed line: fatal in strict; kept as `invalid` with a warning in compatible.
  core::Status invalid(MissionCfgLine& l, Diagnostic d) {
    SORTIE_CHECK(soft(std::move(d)));
    l.kind = Kind::invalid;
    l.key.clear();
    l.value.clear();
    keep(std::move(l));
    return {};
  }

  core::Status line(std::string_view raw, std::string_view ending, std::size_t offset) {
    line_text_ = raw;
    MissionCfgLine l;
    l.raw = std::string(raw);
    l.ending = std::string(ending);
    l.number = number_;
    l.offset = offset;
    if (const auto bad = std::find_if(raw.begin(), raw.end(), control_byte); bad != raw.end())
      return invalid(l, located(offset, "mission_cfg.character",
                                fmt::format("control byte 0x{:02x} at column {}", static_cast<unsigned char>(*bad),
                                            bad - raw.begin() + 1),
                                place(), "text, tabs and cp1251 bytes"));
    const std::string_view trimmed = core::trim(raw, core::kBlanks);
    if (trimmed.empty()) {
      l.kind = Kind::blank;
      keep(std::move(l));
      return {};
    }
    if (is_comment(trimmed)) {
      l.kind = Kind::comment;
      keep(std::move(l));
      return {};
    }
    const Split s = split(raw);
    l.key = std::string(s.key);
    l.value = std::string(s.value);
    if (core::iequals_ascii(s.key, "object")) return object(l);
    if (core::iequals_ascii(s.key, "end")) return end(l);
    return field(l);
  }

  core::Status object(MissionCfgLine& l) {
    if (current_)
      return invalid(l, located(l.offset, "mission_cfg.syntax",
                                fmt::format("'object' inside the block opened at line {} (blocks do not nest)",
                                            current_->open.number),
                                place(), "end"));
    if (l.value.empty())
      return invalid(l, located(l.offset, "mission_cfg.syntax", "'object' without a name", place(), "object <name>"));
    if (!quotes_balanced(l.value))
      return invalid(l, located(l.offset, "mission_cfg.quote", "the name opens a double quote it does not close",
                                place(), "balanced double quotes"));
    l.kind = Kind::object;
    current_.emplace();
    current_->before = std::move(pending_);
    pending_.clear();
    current_->open = std::move(l);
    named_seen_.fill(0);
    return {};
  }

  core::Status end(MissionCfgLine& l) {
    if (!current_)
      return invalid(l, located(l.offset, "mission_cfg.syntax", "'end' outside a block", place(), "object <name>"));
    if (!l.value.empty()) {
      // Compatible: the block still closes here, the text after `end` is kept in the line.
      SORTIE_CHECK(soft(located(l.offset, "mission_cfg.syntax", "'end' followed by text", place(), "end")));
    }
    l.kind = Kind::end;
    current_->close = std::move(l);
    config_.objects.push_back(std::move(*current_));
    current_.reset();
    return {};
  }

  core::Status field(MissionCfgLine& l) {
    if (!current_)
      return invalid(
          l, located(l.offset, "mission_cfg.syntax", fmt::format("field '{}' outside a block", found_text(l.key)),
                     place(), "object <name>"));
    const std::string path = place();
    l.kind = Kind::field;
    if (!quotes_balanced(l.value))
      SORTIE_CHECK(soft(located(l.offset, "mission_cfg.quote", "the value opens a double quote it does not close",
                                path + ".value", "balanced double quotes")));
    if (integer_key(l.key) && !parse_i32(l.text()))
      SORTIE_CHECK(soft(located(l.offset, "mission_cfg.value",
                                fmt::format("'{}' is not an integer for {}", found_text(l.value), l.key),
                                path + ".value", "decimal i32")));
    for (std::size_t i = 0; i < kNamed.size(); ++i) {
      if (!core::iequals_ascii(l.key, kNamed[i])) continue;
      if (named_seen_[i] != 0 && warnings_ != nullptr)
        warnings_->push_back(
            Diagnostic::warning("mission_cfg.duplicate",
                                fmt::format("line {}: '{}' repeats the field of line {} in "
                                            "'object {}'; the first one counts",
                                            number_, l.key, named_seen_[i], found_text(current_->open.value)))
                .of(file_)
                .at(l.offset)
                .in(path + ".key"));
      if (named_seen_[i] == 0) named_seen_[i] = number_;
    }
    current_->lines.push_back(std::move(l));
    return {};
  }

  std::string_view text_;
  const ReadOptions& options_;
  core::Diagnostics* warnings_;
  std::string file_;
  MissionConfig config_;
  std::optional<MissionCfgObject> current_;
  std::vector<MissionCfgLine> pending_;
  std::array<std::size_t, kNamed.size()> named_seen_{};  // line of the first desc/library/libtype/type
  std::size_t number_ = 0;
  std::string_view line_text_;
};

std::string_view value_check(std::string_view key, std::string_view value) {
  const Split s = split(key);
  if (key.empty() || s.key != key || is_comment(key) || core::iequals_ascii(key, "object") ||
      core::iequals_ascii(key, "end") || std::any_of(key.begin(), key.end(), control_byte))
    return "a key is one token, not a comment, 'object' or 'end'";
  if (core::trim(value, core::kBlanks) != value || std::any_of(value.begin(), value.end(), control_byte))
    return "a value has no control bytes and no leading or trailing blanks";
  if (!quotes_balanced(value)) return "a value has balanced double quotes";
  if (integer_key(key)) {
    MissionCfgLine probe;
    probe.value = std::string(value);
    if (!parse_i32(probe.text())) return "type and libtype are decimal i32";
  }
  return {};
}

}  // namespace

std::string_view to_string(MissionCfgLineKind kind) {
  switch (kind) {
    case Kind::blank:
      return "blank";
    case Kind::comment:
      return "comment";
    case Kind::object:
      return "object";
    case Kind::field:
      return "field";
    case Kind::end:
      return "end";
    case Kind::invalid:
      return "invalid";
  }
  return "invalid";
}

std::string_view MissionCfgLine::text() const {
  const std::string_view v = value;
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"' && v.substr(1, v.size() - 2).find('"') == v.npos)
    return v.substr(1, v.size() - 2);
  return v;
}

const MissionCfgLine* MissionCfgObject::find(std::string_view key) const {
  for (const auto& l : lines)
    if (l.kind == Kind::field && core::iequals_ascii(l.key, key)) return &l;
  return nullptr;
}

MissionCfgLine* MissionCfgObject::find(std::string_view key) {
  for (auto& l : lines)
    if (l.kind == Kind::field && core::iequals_ascii(l.key, key)) return &l;
  return nullptr;
}

std::vector<const MissionCfgLine*> MissionCfgObject::find_all(std::string_view key) const {
  std::vector<const MissionCfgLine*> out;
  for (const auto& l : lines)
    if (l.kind == Kind::field && core::iequals_ascii(l.key, key)) out.push_back(&l);
  return out;
}

std::vector<const MissionCfgLine*> MissionCfgObject::fields() const {
  std::vector<const MissionCfgLine*> out;
  for (const auto& l : lines)
    if (l.kind == Kind::field) out.push_back(&l);
  return out;
}

std::optional<std::string_view> MissionCfgObject::desc() const {
  const auto* l = find("desc");
  return l ? std::optional(l->text()) : std::nullopt;
}

std::optional<std::string_view> MissionCfgObject::library() const {
  const auto* l = find("library");
  return l ? std::optional(l->text()) : std::nullopt;
}

std::optional<std::int32_t> MissionCfgObject::type() const {
  const auto* l = find("type");
  return l ? parse_i32(l->text()) : std::nullopt;
}

std::optional<std::int32_t> MissionCfgObject::libtype() const {
  const auto* l = find("libtype");
  return l ? parse_i32(l->text()) : std::nullopt;
}

core::Status MissionCfgObject::set(std::string_view key, std::string_view value) {
  if (const std::string_view why = value_check(key, value); !why.empty())
    return core::fail(Diagnostic::error("mission_cfg.edit", fmt::format("cannot set '{}' in 'object {}': {}",
                                                                        found_text(key), found_text(name()), why))
                          .expect(std::string(why), found_text(value)));
  if (MissionCfgLine* l = find(key)) {
    l->value = std::string(value);
    return {};
  }
  // After the last field (at the end of the block when it has none), with the indentation and
  // line ending of the line it follows: `raw` holds only the indentation, so the line renders
  // canonically from it.
  const auto last =
      std::find_if(lines.rbegin(), lines.rend(), [](const MissionCfgLine& x) { return x.kind == Kind::field; });
  const auto at = last == lines.rend() ? lines.end() : last.base();
  const MissionCfgLine& prev = at == lines.begin() ? open : *std::prev(at);
  MissionCfgLine l;
  l.kind = Kind::field;
  l.key = std::string(key);
  l.value = std::string(value);
  l.raw = prev.kind == Kind::field ? std::string(split(prev.raw).indent) : std::string();
  l.ending = prev.ending.empty() ? "\n" : prev.ending;
  lines.insert(at, std::move(l));
  return {};
}

const MissionCfgObject* MissionConfig::find(std::string_view name) const {
  for (const auto& o : objects)
    if (core::iequals_ascii(o.name(), name)) return &o;
  return nullptr;
}

std::size_t MissionConfig::line_count() const {
  std::size_t n = after.size();
  for (const auto& o : objects) n += o.before.size() + 1 + o.lines.size() + (o.close ? 1 : 0);
  return n;
}

core::Result<MissionConfig> read_mission_cfg(core::ByteView data, const ReadOptions& options,
                                             core::Diagnostics* warnings) {
  const std::string file = options.file_name.empty() ? "mission.cfg" : options.file_name;
  if (data.size() > kMissionCfgMaxBytes)
    return core::fail(Diagnostic::error("mission_cfg.limit", "the file is larger than the reader's limit")
                          .of(file)
                          .at(0)
                          .expect(fmt::format("<= {} bytes", kMissionCfgMaxBytes), std::to_string(data.size())));
  return Reader(core::as_chars(data), options, warnings).run();
}

core::Bytes write_mission_cfg(const MissionConfig& config) {
  core::ByteWriter w;
  bool open_line = false;  // the line written last had no ending (only right for the last line)
  auto put = [&](const MissionCfgLine& l) {
    if (open_line) w.u8('\n');
    render(w, l);
    open_line = l.ending.empty();
  };
  for (const auto& o : config.objects) {
    for (const auto& l : o.before) put(l);
    put(o.open);
    for (const auto& l : o.lines) put(l);
    if (o.close) put(*o.close);
  }
  for (const auto& l : config.after) put(l);
  return w.take();
}

core::Json mission_cfg_json(const MissionConfig& config) {
  core::Json j;
  j["format"] = "mission_cfg";
  core::Json objects = core::Json::array();
  std::size_t comments = 0;
  std::size_t invalid = 0;
  auto count = [&](const MissionCfgLine& l) {
    comments += l.kind == Kind::comment ? 1 : 0;
    invalid += l.kind == Kind::invalid ? 1 : 0;
  };
  for (const auto& o : config.objects) {
    for (const auto& l : o.before) count(l);
    core::Json jo;
    jo["line"] = o.open.number;
    jo["name"] = core::legacy_text_json(o.name());
    if (auto v = o.desc()) jo["desc"] = core::legacy_text_json(*v);
    if (auto v = o.library()) jo["library"] = core::legacy_text_json(*v);
    if (auto v = o.libtype()) jo["libtype"] = *v;
    if (auto v = o.type()) jo["type"] = *v;
    core::Json fields = core::Json::array();
    for (const auto& l : o.lines) {
      count(l);
      if (l.kind != Kind::field) continue;
      fields.push_back(core::Json{
          {"line", l.number}, {"key", core::legacy_text_json(l.key)}, {"value", core::legacy_text_json(l.value)}});
    }
    jo["fields"] = std::move(fields);
    jo["terminated"] = o.close.has_value();
    objects.push_back(std::move(jo));
  }
  for (const auto& l : config.after) count(l);
  j["objects"] = std::move(objects);
  j["lines"] = config.line_count();
  j["comments"] = comments;
  if (invalid > 0) j["invalid_lines"] = invalid;
  return j;
}

namespace {

int detect(core::ByteView, std::string_view file_name) {
  const auto slash = file_name.find_last_of("/\\");
  const auto base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  return core::iequals_ascii(base, "mission.cfg") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<MissionConfig> kMissionCfgFormat{
    .name = "mission_cfg",
    .description = "mission.cfg: a mission's named resource objects (ambient music, sound resources)",
    .detect = &detect,
    .read = &read_mission_cfg,
    .json = &mission_cfg_json,
    .write = [](const MissionConfig& m) -> core::Result<core::Bytes> { return write_mission_cfg(m); },
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

FormatInfo mission_cfg_format_info() {
  return format_info<MissionConfig, kMissionCfgFormat>();
}

}  // namespace sortie::iron3d
