#include "sortie/iron3d/wear.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "asset_util.hpp"
#include "sortie/core/json.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {

struct Line {
  std::string text;  // '\r' removed
  std::size_t offset = 0;
};

bool is_blank(std::string_view s) {
  return core::trim(s).empty();
}

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  constexpr std::string_view kWs = " \t\v\f";
  std::size_t i = 0;
  while (out.size() < 3) {
    i = s.find_first_not_of(kWs, i);
    if (i == std::string_view::npos) break;
    auto e = s.find_first_of(kWs, i);
    if (e == std::string_view::npos) e = s.size();
    out.push_back(s.substr(i, e - i));
    i = e;
  }
  return out;
}

bool parse_unsigned(std::string_view s, std::uint64_t& out) {
  s = core::trim(s);
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

core::Result<Wear> read_wear(core::ByteView data, const ReadOptions& options) {
  const std::string_view text = core::as_chars(data);
  auto err = [&](std::string code, std::string msg, std::size_t offset, std::string field) {
    return Diagnostic::error(std::move(code), std::move(msg)).of(options.file_name).at(offset).in(std::move(field));
  };
  if (text.empty())
    return core::fail(err("wear.empty", "WEAR text is empty", 0, "count").expect("a row count", "no text"));
  // Counted before a line is copied: every '\n' starts one more.
  if (const auto breaks = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); breaks >= kWearMaxLines)
    return core::fail(err("wear.limit", "more lines than the reader's limit", 0, "lines")
                          .expect(fmt::format("<= {} lines", kWearMaxLines), fmt::format("{} lines", breaks + 1)));
  Wear wear;
  std::vector<Line> lines;
  {
    std::size_t start = 0;
    while (true) {
      auto nl = text.find('\n', start);
      const auto raw = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
      wear.lines.emplace_back(raw);
      Line l;
      l.offset = start;
      for (char c : raw)
        if (c != '\r') l.text.push_back(c);
      lines.push_back(std::move(l));
      if (nl == std::string_view::npos) break;
      start = nl + 1;
    }
  }
  // Like a line iterator: the empty piece after a final '\n' is not a line (it stays in
  // wear.lines for writing); text that is only '\r' bytes has no line at all.
  if (lines.size() == 1 && lines[0].text.empty())
    return core::fail(err("wear.empty", "WEAR text has no line", 0, "count").expect("a row count", "no line"));
  if (lines.back().text.empty()) lines.pop_back();
  std::uint64_t count = 0;
  if (!parse_unsigned(lines[0].text, count))
    return core::fail(err("wear.count", "first line is not an unsigned row count", 0, "count")
                          .expect("unsigned decimal", std::string(core::trim(lines[0].text))));
  if (count == 0) return core::fail(err("wear.count_zero", "WEAR row count is zero", 0, "count").expect(">= 1", "0"));
  // Bound the count by the lines present before allocating.
  if (count > lines.size() - 1)
    return core::fail(err("wear.row_missing", "fewer material rows than the count says", text.size(),
                          fmt::format("materials[{}]", lines.size() - 1))
                          .expect(fmt::format("{} rows", count), fmt::format("{} lines", lines.size() - 1)));
  wear.materials.reserve(count);
  std::size_t li = 1;
  for (std::uint64_t i = 0; i < count; ++i, ++li) {
    auto t = tokens(lines[li].text);
    if (t.size() < 2)
      return core::fail(
          err("wear.row", "material row needs '<id> <name>'", lines[li].offset, fmt::format("materials[{}]", i))
              .expect("2 tokens", fmt::format("{} tokens", t.size())));
    wear.materials.push_back({std::string(t[0]), std::string(t[1]), li});
  }
  // Remaining lines: nothing but blanks, or blank + LIGHTMAPS block.
  bool rest_blank = true;
  for (std::size_t k = li; k < lines.size(); ++k) rest_blank = rest_blank && is_blank(lines[k].text);
  if (rest_blank) return wear;
  if (!is_blank(lines[li].text))
    return core::fail(
        err("wear.lightmap_separator", "a blank line must precede LIGHTMAPS", lines[li].offset, "lightmaps")
            .expect("blank line", std::string(core::trim(lines[li].text))));
  ++li;
  if (li >= lines.size() || core::trim(lines[li].text) != "LIGHTMAPS")
    return core::fail(
        err("wear.lightmap_marker", "expected the LIGHTMAPS marker", li < lines.size() ? lines[li].offset : text.size(),
            "lightmaps")
            .expect("LIGHTMAPS", li < lines.size() ? std::string(core::trim(lines[li].text)) : "end of text"));
  wear.has_lightmaps = true;
  ++li;
  std::uint64_t lm_count = 0;
  if (li >= lines.size() || !parse_unsigned(lines[li].text, lm_count))
    return core::fail(
        err("wear.lightmap_count", "LIGHTMAPS needs an unsigned count line",
            li < lines.size() ? lines[li].offset : text.size(), "lightmaps.count")
            .expect("unsigned decimal", li < lines.size() ? std::string(core::trim(lines[li].text)) : "end of text"));
  ++li;
  if (lm_count > lines.size() - li)
    return core::fail(err("wear.lightmap_row_missing", "fewer lightmap rows than the count says", text.size(),
                          fmt::format("lightmaps[{}]", lines.size() - li))
                          .expect(fmt::format("{} rows", lm_count), fmt::format("{} lines", lines.size() - li)));
  wear.lightmaps.reserve(lm_count);
  for (std::uint64_t i = 0; i < lm_count; ++i, ++li) {
    auto t = tokens(lines[li].text);
    if (t.size() < 2)
      return core::fail(err("wear.lightmap_row", "lightmap row needs '<id> <name>'", lines[li].offset,
                            fmt::format("lightmaps[{}]", i))
                            .expect("2 tokens", fmt::format("{} tokens", t.size())));
    wear.lightmaps.push_back({std::string(t[0]), std::string(t[1]), li});
  }
  for (; li < lines.size(); ++li)
    if (!is_blank(lines[li].text))
      return core::fail(err("wear.lightmap_row", "text after the LIGHTMAPS block", lines[li].offset, "lightmaps")
                            .expect("blank lines", std::string(core::trim(lines[li].text))));
  return wear;
}

core::Bytes write_wear(const Wear& wear) {
  core::ByteWriter w;
  for (std::size_t i = 0; i < wear.lines.size(); ++i) {
    if (i) w.u8('\n');
    w.bytes(wear.lines[i]);
  }
  return w.take();
}

std::vector<std::string> wear_material_names(const Wear& wear) {
  std::vector<std::string> out;
  for (const auto& r : wear.materials) out.push_back(r.name);
  return out;
}

std::vector<std::string> wear_lightmap_names(const Wear& wear) {
  std::vector<std::string> out;
  for (const auto& r : wear.lightmaps) out.push_back(r.name);
  return out;
}

core::Result<Wear> build_wear(const std::vector<std::string>& materials, const std::vector<std::string>& lightmaps) {
  if (materials.empty())
    return core::fail(
        Diagnostic::error("builder.wear", "a WEAR table needs at least one material").expect(">= 1", "0"));
  auto bad = [](const std::string& n) { return n.empty() || n.find_first_of(" \t\r\n\v\f") != std::string::npos; };
  std::string text = fmt::format("{}\r\n", materials.size());
  for (std::size_t i = 0; i < materials.size(); ++i) {
    if (bad(materials[i]))
      return core::fail(Diagnostic::error("builder.wear", "material name is empty or holds whitespace")
                            .in(fmt::format("materials[{}]", i))
                            .expect("a token", materials[i]));
    text += fmt::format("{} {}\r\n", i, materials[i]);
  }
  if (!lightmaps.empty()) {
    text += fmt::format("\r\nLIGHTMAPS\r\n{}\r\n", lightmaps.size());
    for (std::size_t i = 0; i < lightmaps.size(); ++i) {
      if (bad(lightmaps[i]))
        return core::fail(Diagnostic::error("builder.wear", "lightmap name is empty or holds whitespace")
                              .in(fmt::format("lightmaps[{}]", i))
                              .expect("a token", lightmaps[i]));
      text += fmt::format("{} {}\r\n", i, lightmaps[i]);
    }
  }
  return read_wear(core::as_bytes(text));
}

std::string wear_name_for_msh(std::string_view msh_entry_name) {
  const auto dot = msh_entry_name.rfind('.');
  if (dot == std::string_view::npos) return std::string(msh_entry_name) + ".wea";
  return std::string(msh_entry_name.substr(0, dot + 1)) + "wea";
}

core::Json wear_json(const Wear& wear) {
  core::Json j;
  j["format"] = "wear";
  auto rows = [](const std::vector<WearRow>& v) {
    core::Json arr = core::Json::array();
    for (const auto& r : v) {
      core::Json e;
      e["legacy_id"] = core::legacy_text_json(r.legacy_id);
      e["name"] = core::legacy_text_json(r.name);
      e["line"] = r.line;
      arr.push_back(std::move(e));
    }
    return arr;
  };
  j["materials"] = rows(wear.materials);
  j["has_lightmaps"] = wear.has_lightmaps;
  j["lightmaps"] = rows(wear.lightmaps);
  j["line_count"] = wear.lines.size();
  return j;
}

namespace {

int detect(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".wea") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Wear> kWearFormat{
    .name = "wear",
    .description = "Iron3D WEAR material table (text; *.wea)",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics*) { return read_wear(d, o); },
    .json = &wear_json,
    .write = [](const Wear& w) -> core::Result<core::Bytes> { return write_wear(w); },
};

}  // namespace

FormatInfo wear_format_info() {
  return format_info<Wear, kWearFormat>();
}

}  // namespace sortie::iron3d
