// BuildDat.lst reader (spec §17): sections of `<Category> <count>` followed by `count` quoted
// unit DAT paths. The document keeps the file text, so writing is exact.
#include "sortie/iron3d/build_dat.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>

#include "sortie/core/text.hpp"

namespace sortie::iron3d {
namespace {

using core::Diagnostic;
using core::fail;

constexpr std::array<BuildCategoryInfo, 12> kCategories = {{
    {"Bunker_Small", 0x80010000u},
    {"Bunker_Medium", 0x80020000u},
    {"Bunker_Large", 0x80040000u},
    {"Generator", 0x80000002u},
    {"Mine", 0x80000004u},
    {"Storage", 0x80000008u},
    {"Plant", 0x80000010u},
    {"Hangar", 0x80000040u},
    {"MainTeleport", 0x80000200u},
    {"Institute", 0x80000400u},
    {"Tower_Medium", 0x80100000u},
    {"Tower_Large", 0x80200000u},
}};

// Offset of the first byte that breaks UTF-8, or nullopt.
std::optional<std::size_t> invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  while (i < s.size()) {
    const unsigned c = p[i];
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + n >= s.size()) return i;
    for (std::size_t k = 1; k <= n; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    static constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n + 1;
  }
  return std::nullopt;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool path_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
         c == '/' || c == '\\' || c == '-';
}

// Empty string when `path` is acceptable, else the reason.
std::string path_problem(std::string_view path) {
  if (path.empty()) return "empty unit path";
  for (char c : path)
    if (!path_char(c)) return fmt::format("character '{}' is not allowed in a unit path", c);
  return {};
}

struct Line {
  std::string_view text;  // trimmed
  std::size_t offset;     // byte offset of the line start
  std::size_t number;     // 1-based
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t start = 0;
  std::size_t number = 1;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back({core::trim(text.substr(start, end - start)), start, number++});
    start = end + 1;
  }
  return lines;
}

}  // namespace

std::span<const BuildCategoryInfo> build_categories() {
  return kCategories;
}

std::optional<std::uint32_t> build_category_mask(std::string_view name) {
  for (const auto& c : kCategories)
    if (c.name == name) return c.mask;
  return std::nullopt;
}

const BuildDatCategory* BuildDat::find(std::string_view name) const {
  for (const auto& c : categories)
    if (c.name == name) return &c;
  return nullptr;
}

std::optional<std::uint32_t> BuildDat::mask_of(std::string_view name) const {
  if (const auto* c = find(name)) return c->mask;
  return std::nullopt;
}

core::Result<BuildDat> read_build_dat(core::ByteView data, const BuildDatReadOptions& options,
                                      core::Diagnostics* warnings) {
  const std::string_view text = core::as_chars(data);
  if (text.size() > kBuildDatMaxBytes)
    return fail(Diagnostic::error("build_dat.limit", "the file is larger than the reader's limit")
                    .of(options.file_name)
                    .expect(fmt::format("<= {} bytes", kBuildDatMaxBytes), fmt::format("{} bytes", text.size())));
  if (auto bad = invalid_utf8_at(text))
    return fail(Diagnostic::error("build_dat.utf8", "text is not valid UTF-8")
                    .of(options.file_name)
                    .at(*bad)
                    .expect("UTF-8", fmt::format("byte 0x{:02x}", static_cast<unsigned char>(text[*bad]))));
  BuildDat doc;
  doc.text = std::string(text);
  const auto lines = split_lines(text);
  auto located = [&](Diagnostic d, const Line& l, std::string field) {
    d.message = fmt::format("line {}: {}", l.number, d.message);
    return std::move(d).of(options.file_name).at(l.offset).in(std::move(field));
  };
  std::size_t i = 0;
  while (i < lines.size()) {
    const Line& head = lines[i++];
    if (head.text.empty() || head.text.starts_with("//")) continue;
    const std::string field = fmt::format("categories[{}]", doc.categories.size());
    // Header: exactly two whitespace-separated tokens.
    std::vector<std::string_view> tokens;
    for (std::size_t p = 0; p < head.text.size();) {
      while (p < head.text.size() && is_space(head.text[p])) ++p;
      std::size_t q = p;
      while (q < head.text.size() && !is_space(head.text[q])) ++q;
      if (q > p) tokens.push_back(head.text.substr(p, q - p));
      p = q;
    }
    if (tokens.size() != 2)
      return fail(located(Diagnostic::error("build_dat.structure", "a section header is `<Category> <count>`")
                              .expect("2 fields", fmt::format("{} field(s): '{}'", tokens.size(), head.text)),
                          head, field));
    std::uint32_t count = 0;
    const auto [ptr, ec] = std::from_chars(tokens[1].data(), tokens[1].data() + tokens[1].size(), count);
    if (ec != std::errc() || ptr != tokens[1].data() + tokens[1].size())
      return fail(located(Diagnostic::error("build_dat.structure", "the unit count is not an unsigned number")
                              .expect("unsigned decimal count", std::string(tokens[1])),
                          head, field + ".count"));
    const auto mask = build_category_mask(tokens[0]);
    if (!mask) {
      std::string known;
      for (const auto& c : kCategories) known += (known.empty() ? "" : ", ") + std::string(c.name);
      return fail(located(
          Diagnostic::error("build_dat.category_unknown", fmt::format("unknown building category '{}'", tokens[0]))
              .expect(known, std::string(tokens[0])),
          head, field + ".name"));
    }
    if (const auto* prev = doc.find(tokens[0])) {
      auto d =
          located(Diagnostic::error("build_dat.category_duplicate",
                                    fmt::format("category '{}' already defined at line {}", tokens[0], prev->line)),
                  head, field + ".name");
      if (options.profile == core::Profile::strict) return fail(std::move(d));
      d.severity = core::Severity::warning;
      if (warnings) warnings->push_back(std::move(d));
    }
    if (count > lines.size() - i)
      return fail(
          located(Diagnostic::error("build_dat.structure",
                                    fmt::format("section '{}' declares {} unit(s) but the file ends", tokens[0], count))
                      .expect(fmt::format("{} path lines", count), fmt::format("{} lines left", lines.size() - i)),
                  head, field + ".count"));
    BuildDatCategory cat{std::string(tokens[0]), *mask, head.number, {}};
    cat.units.reserve(count);
    for (std::uint32_t k = 0; k < count; ++k) {
      const Line& l = lines[i++];
      const std::string ufield = fmt::format("{}.units[{}]", field, k);
      if (l.text.size() < 2 || l.text.front() != '"' || l.text.back() != '"')
        return fail(located(Diagnostic::error("build_dat.path", "a unit line is a double-quoted path")
                                .expect("\"PATH\"", std::string(l.text)),
                            l, ufield));
      const std::string_view path = l.text.substr(1, l.text.size() - 2);
      if (auto why = path_problem(path); !why.empty())
        return fail(located(
            Diagnostic::error("build_dat.path", why).expect("A-Z a-z 0-9 _ . / \\ -", std::string(path)), l, ufield));
      cat.units.push_back({std::string(path), l.number});
    }
    doc.categories.push_back(std::move(cat));
  }
  return doc;
}

core::Diagnostics check_build_dat(const BuildDat& doc, std::string_view file_name) {
  core::Diagnostics out;
  for (const auto& known : kCategories)
    if (!doc.find(known.name))
      out.push_back(Diagnostic::warning("build_dat.category_missing",
                                        fmt::format("category '{}' is absent: it has no mask (not 0x{:08x}, not 0)",
                                                    known.name, known.mask))
                        .of(std::string(file_name))
                        .in(std::string(known.name)));
  for (std::size_t i = 0; i < doc.categories.size(); ++i)
    if (doc.categories[i].units.empty())
      out.push_back(
          Diagnostic::warning("build_dat.category_empty", fmt::format("line {}: category '{}' lists no units",
                                                                      doc.categories[i].line, doc.categories[i].name))
              .of(std::string(file_name))
              .in(fmt::format("categories[{}]", i)));
  return out;
}

core::Bytes write_build_dat(const BuildDat& doc) {
  const auto b = core::as_bytes(doc.text);
  return {b.begin(), b.end()};
}

core::Result<BuildDat> make_build_dat(const std::vector<BuildDatCategory>& categories) {
  std::string text;
  for (const auto& c : categories) {
    text += fmt::format("{} {}\n", c.name, c.units.size());
    for (const auto& u : c.units) text += fmt::format("\"{}\"\n", u.path);
  }
  return read_build_dat(core::as_bytes(text));
}

core::Json build_dat_to_json(const BuildDat& doc) {
  core::Json j;
  j["format"] = "build_dat";
  core::Json cats = core::Json::array();
  for (const auto& c : doc.categories) {
    core::Json units = core::Json::array();
    for (const auto& u : c.units) units.push_back({{"path", u.path}, {"line", u.line}});
    cats.push_back({{"name", c.name},
                    {"mask", c.mask},
                    {"mask_hex", fmt::format("0x{:08x}", c.mask)},
                    {"line", c.line},
                    {"units", std::move(units)}});
  }
  j["categories"] = std::move(cats);
  return j;
}

namespace {

// The first line that is not blank or a `//` comment starts with a known category name.
bool starts_like_build_dat(core::ByteView data) {
  for (const Line& line : split_lines(core::as_chars(data))) {
    if (line.text.empty() || line.text.starts_with("//")) continue;
    const auto end = std::find_if(line.text.begin(), line.text.end(), is_space);
    return build_category_mask(line.text.substr(0, static_cast<std::size_t>(end - line.text.begin()))).has_value();
  }
  return false;
}

int detect(core::ByteView data, std::string_view file_name) {
  // Content: a small text whose whole parse succeeds with at least one category.
  if (data.size() <= kBuildDatMaxBytes && starts_like_build_dat(data)) {
    const auto doc = read_build_dat(data, {core::Profile::compatible, std::string(file_name)});
    if (doc && !doc->categories.empty()) return kDetectContent;
  }
  const auto slash = file_name.find_last_of("/\\");
  const auto base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  return core::iequals_ascii(base, "BuildDat.lst") ? kDetectName : kDetectNone;
}

BuildDatReadOptions read_options(const ReadOptions& o) {
  return {o.profile, o.file_name.empty() ? "BuildDat.lst" : o.file_name};
}

// The document's own cross checks (check_build_dat) are part of reading it: inspect lists them
// with the reader's warnings, check reports them.
core::Result<BuildDat> read(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  SORTIE_TRY(auto doc, read_build_dat(data, read_options(options), warnings));
  if (warnings)
    for (auto& d : check_build_dat(doc, read_options(options).file_name)) warnings->push_back(std::move(d));
  return doc;
}

constexpr FormatAdapter<BuildDat> kBuildDatFormat{
    .name = "build_dat",
    .description = "BuildDat.lst building categories: 12 named masks with unit DAT paths",
    .detect = &detect,
    .read = &read,
    .json = &build_dat_to_json,
    .write = [](const BuildDat& doc) -> core::Result<core::Bytes> { return write_build_dat(doc); },
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

FormatInfo build_dat_format_info() {
  return format_info<BuildDat, kBuildDatFormat>();
}

}  // namespace sortie::iron3d
