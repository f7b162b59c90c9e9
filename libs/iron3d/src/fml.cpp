#include "sortie/iron3d/fml.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

namespace {

constexpr std::string_view kFmlSpace = " \t\r\f";

bool is_fml_control(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != '\f') || c == 0x7F;
}

}  // namespace

FmlLine Fml::line(std::size_t index) const {
  FmlLine out;
  std::string_view s = lines.at(index);
  if (!s.empty() && s.back() == '\r') {
    out.crlf = true;
    s.remove_suffix(1);
  }
  const auto c = s.find("//");
  if (c != std::string_view::npos) {
    out.comment = s.substr(c);
    s = s.substr(0, c);
  }
  out.code = core::trim(s, kFmlSpace);
  return out;
}

FmlSummary fml_summary(const Fml& fml) {
  FmlSummary s;
  s.lines = fml.lines.size();
  for (std::size_t i = 0; i < fml.lines.size(); ++i) {
    const FmlLine l = fml.line(i);
    if (l.crlf) ++s.crlf;
    if (!l.code.empty())
      ++s.code;
    else if (!l.comment.empty())
      ++s.comment;
    else
      ++s.blank;
  }
  return s;
}

core::Result<Fml> read_fml(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  if (data.size() > kFmlMaxBytes)
    return core::fail(Diagnostic::error("fml.limit", "formula export larger than the reader's limit")
                          .of(options.file_name)
                          .expect(fmt::format("<= {} bytes", kFmlMaxBytes), fmt::format("{} bytes", data.size())));
  const std::string_view text = core::as_chars(data);
  Fml fml;
  std::size_t start = 0;
  bool warned = false;
  while (true) {
    if (fml.lines.size() >= kFmlMaxLines)
      return core::fail(Diagnostic::error("fml.limit", "formula export has more lines than the reader's limit")
                            .of(options.file_name)
                            .at(start)
                            .expect(fmt::format("<= {} lines", kFmlMaxLines), "more"));
    const auto nl = text.find('\n', start);
    const auto raw = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (!warned && warnings != nullptr) {
      for (std::size_t i = 0; i < raw.size(); ++i) {
        if (!is_fml_control(static_cast<unsigned char>(raw[i]))) continue;
        warnings->push_back(Diagnostic::warning("fml.control", "formula export holds a control byte (kept as is)")
                                .of(options.file_name)
                                .at(start + i)
                                .in(fmt::format("lines[{}]", fml.lines.size()))
                                .expect("text", fmt::format("0x{:02X}", static_cast<unsigned char>(raw[i]))));
        warned = true;
        break;
      }
    }
    fml.lines.emplace_back(raw);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return fml;
}

core::Bytes write_fml(const Fml& fml) {
  core::ByteWriter w;
  for (std::size_t i = 0; i < fml.lines.size(); ++i) {
    if (i) w.u8('\n');
    w.bytes(fml.lines[i]);
  }
  return w.take();
}

core::Json fml_json(const Fml& fml) {
  core::Json j;
  j["format"] = "fml";
  const FmlSummary s = fml_summary(fml);
  j["summary"] = {{"lines", s.lines}, {"blank", s.blank}, {"comment", s.comment}, {"code", s.code}, {"crlf", s.crlf}};
  core::Json code = core::Json::array();
  for (std::size_t i = 0; i < fml.lines.size(); ++i) {
    const FmlLine l = fml.line(i);
    if (l.code.empty()) continue;
    code.push_back({{"line", i}, {"code", core::legacy_text_json(l.code)}});
  }
  j["code_lines"] = std::move(code);
  return j;
}

namespace {

int detect_fml(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".fml") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Fml> kFmlFormat{
    .name = "fml",
    .description = "Iron3D formula export (text beside a .scr package; lines kept byte for byte)",
    .detect = &detect_fml,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics* w) { return read_fml(d, o, w); },
    .json = &fml_json,
    .write = [](const Fml& f) -> core::Result<core::Bytes> { return write_fml(f); },
    .inspect_warnings = InspectWarnings::when_any,
};

}  // namespace

FormatInfo fml_format_info() {
  return format_info<Fml, kFmlFormat>();
}

}  // namespace sortie::iron3d
