#include "sortie/formats/files.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/core/exit_code.hpp"
#include "sortie/core/file_io.hpp"

namespace sortie::formats {

using core::Diagnostic;
using core::Json;

core::Result<OpenedFile> open_file(const std::string& path, std::string_view forced_format) {
  SORTIE_TRY(auto bytes, core::read_file(path));
  OpenedFile f{std::move(bytes), nullptr};
  if (!forced_format.empty()) {
    f.format = find_format(forced_format);
    if (f.format == nullptr) {
      std::string known;
      for (const auto& row : all_formats()) known += (known.empty() ? "" : ", ") + std::string(row.name);
      return core::fail(
          Diagnostic::error("usage.format", "unknown format name").of(path).expect(known, std::string(forced_format)));
    }
    return f;
  }
  f.format = detect_format(f.bytes, path);
  if (f.format == nullptr) {
    return core::fail(Diagnostic::error("format.unknown", "unrecognised file format (not a format sortie knows)")
                          .of(path)
                          .at(0)
                          .expect("a known magic or file name", core::to_hex(core::ByteView(f.bytes).first(
                                                                    std::min<std::size_t>(8, f.bytes.size())))));
  }
  return f;
}

namespace {

Diagnostic located(Diagnostic d, const std::string& path) {
  if (d.file.empty()) d.file = path;
  return d;
}

}  // namespace

Json failure_json(const std::string& path, const FormatInfo* format, const Diagnostic& d) {
  Json j;
  j["file"] = path;
  j["format"] = format ? Json(std::string(format->name)) : Json(nullptr);
  j["valid"] = false;
  j["diagnostic"] = located(d, path).to_json();
  return j;
}

core::Result<Json> inspect_file(const OpenedFile& f, const std::string& path, core::Profile profile) {
  auto j = f.format->inspect(f.bytes, ReadOptions{profile, path});
  if (!j) return core::fail(located(j.error(), path));
  Json out = std::move(*j);
  out["file"] = path;
  if (!out.contains("format")) out["format"] = std::string(f.format->name);
  return out;
}

std::size_t CheckRun::valid() const {
  return static_cast<std::size_t>(
      std::count_if(files.begin(), files.end(), [](const CheckedFile& f) { return !f.error; }));
}

int CheckRun::exit_code() const {
  int worst = core::kExitOk;
  for (const CheckedFile& f : files) {
    if (!f.error) continue;
    worst = std::max(worst, f.format == nullptr ? core::exit_code_for(*f.error) : core::kExitInvalid);
  }
  return worst;
}

Json CheckRun::to_json() const {
  Json results = Json::array();
  for (const CheckedFile& f : files) {
    if (f.error) {
      results.push_back(failure_json(f.path, f.format, *f.error));
      continue;
    }
    results.push_back(Json{{"file", f.path},
                           {"format", std::string(f.format->name)},
                           {"valid", true},
                           {"findings", core::diagnostics_json(f.findings)}});
  }
  const std::size_t ok = valid();
  return Json{{"files", results}, {"summary", {{"valid", ok}, {"invalid", files.size() - ok}}}};
}

std::string CheckRun::to_text(std::vector<Diagnostic>& errors) const {
  std::string out;
  for (const CheckedFile& f : files) {
    if (f.error && f.format == nullptr) {
      errors.push_back(*f.error);
      continue;
    }
    if (f.error) {
      out +=
          fmt::format("{}: invalid {}\n  error: {}\n", f.path, f.format->name, located(*f.error, f.path).to_string());
      continue;
    }
    out += fmt::format("{}: ok ({}, {})", f.path, f.format->name,
                       profile == core::Profile::compatible ? "compatible" : "strict");
    if (!f.findings.empty()) out += fmt::format(", {} warning(s)", f.findings.size());
    out += "\n";
    for (const auto& d : f.findings) out += fmt::format("  {}: {}\n", core::to_string(d.severity), d.to_string());
  }
  if (files.size() > 1) {
    out += fmt::format("{} file(s) checked: {} valid, {} invalid\n", files.size(), valid(), files.size() - valid());
  }
  return out;
}

CheckRun check_files(const FileRequest& request) {
  CheckRun run;
  run.profile = request.profile;
  for (const std::string& path : request.files) {
    CheckedFile c;
    c.path = path;
    auto f = open_file(path, request.format);
    if (!f) {
      c.error = f.error();
      run.files.push_back(std::move(c));
      continue;
    }
    c.format = f->format;
    auto report = f->format->check(f->bytes, ReadOptions{request.profile, path});
    if (report) {
      c.findings = std::move(report->findings);
    } else {
      c.error = report.error();
    }
    run.files.push_back(std::move(c));
  }
  return run;
}

std::string RoundtripResult::to_text() const {
  if (!first_difference) return fmt::format("{}: identical ({}, {} bytes)\n", path, format, input_bytes);
  return fmt::format("{}: DIFFERENT ({}): first difference at 0x{:x}; input {} bytes, written {} bytes\n", path, format,
                     *first_difference, input_bytes, written_bytes);
}

core::Result<RoundtripResult> roundtrip_file(const std::string& path, const FileRequest& request) {
  SORTIE_TRY(const OpenedFile f, open_file(path, request.format));
  if (!f.format->roundtrip) {
    return core::fail(
        Diagnostic::error("usage.roundtrip", "this format has no writer to compare with: its text is its model")
            .of(path)
            .expect("a binary format (see `sortie formats`)", std::string(f.format->name)));
  }
  auto written = f.format->roundtrip(f.bytes, ReadOptions{request.profile, path});
  if (!written) return core::fail(located(written.error(), path));
  RoundtripResult r;
  r.path = path;
  r.format = f.format->name;
  r.input_bytes = f.bytes.size();
  r.written_bytes = written->size();
  if (f.bytes != *written) {
    const auto diff = std::mismatch(f.bytes.begin(), f.bytes.end(), written->begin(), written->end());
    r.first_difference = static_cast<std::size_t>(diff.first - f.bytes.begin());
  }
  return r;
}

Json formats_json() {
  Json list = Json::array();
  for (const auto& f : all_formats()) {
    list.push_back({{"name", std::string(f.name)}, {"description", std::string(f.description)}});
  }
  return list;
}

std::string formats_text() {
  std::string out;
  for (const auto& f : all_formats()) out += fmt::format("{:<14} {}\n", f.name, f.description);
  return out;
}

namespace {

void summarize(const Json& j, int depth, std::string& out) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  const auto dump = [](const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); };
  for (const auto& [key, value] : j.items()) {
    if (value.is_array()) {
      out += fmt::format("{}{}: {}{}\n", indent, key, value.size(), value.size() == 1 ? " item" : " items");
      std::size_t shown = 0;
      for (const auto& item : value) {
        if (++shown > 64) {
          out += fmt::format("{}  ... ({} more; use --json for all)\n", indent, value.size() - 64);
          break;
        }
        out += fmt::format("{}  - {}\n", indent, dump(item));
      }
    } else if (value.is_object() && depth < 1) {
      out += fmt::format("{}{}:\n", indent, key);
      summarize(value, depth + 1, out);
    } else {
      out += fmt::format("{}{}: {}\n", indent, key, dump(value));
    }
  }
}

}  // namespace

std::string json_summary(const Json& j) {
  std::string out;
  summarize(j, 0, out);
  return out;
}

}  // namespace sortie::formats
