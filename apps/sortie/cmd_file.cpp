// `sortie inspect`, `sortie check`, `sortie roundtrip`, `sortie formats`: format-generic commands
// that dispatch over the format table (libs/formats/formats.hpp).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/formats/formats.hpp"

namespace sortie::cli {
namespace {

using core::Diagnostic;
using core::Json;

struct FileOptions {
  std::vector<std::string> files;
  std::string format;  // forced format name; empty = detect
  bool json = false;
  bool strict = false;
  bool compatible = false;
};

core::Profile profile_of(const FileOptions& o) {
  return o.compatible ? core::Profile::compatible : core::Profile::strict;
}

// Loads a file and picks its format. On failure returns the diagnostic.
struct Loaded {
  core::Bytes bytes;
  const formats::FormatInfo* format = nullptr;
};

core::Result<Loaded> load(const std::string& path, const FileOptions& o) {
  SORTIE_TRY(auto bytes, core::read_file(path));
  Loaded l{std::move(bytes), nullptr};
  if (!o.format.empty()) {
    l.format = formats::find_format(o.format);
    if (!l.format) {
      std::string known;
      for (const auto& f : formats::all_formats()) known += (known.empty() ? "" : ", ") + std::string(f.name);
      return core::fail(Diagnostic::error("usage.format", "unknown format name").of(path).expect(known, o.format));
    }
  } else {
    l.format = formats::detect_format(l.bytes, path);
    if (!l.format)
      return core::fail(Diagnostic::error("format.unknown", "unrecognised file format (not a format sortie knows)")
                            .of(path)
                            .at(0)
                            .expect("a known magic or file name", core::to_hex(core::ByteView(l.bytes).first(
                                                                      std::min<std::size_t>(8, l.bytes.size())))));
  }
  return l;
}

Json failure_json(const std::string& path, const formats::FormatInfo* format, const Diagnostic& d) {
  Json j;
  j["file"] = path;
  j["format"] = format ? Json(std::string(format->name)) : Json(nullptr);
  j["valid"] = false;
  Diagnostic located = d;
  if (located.file.empty()) located.file = path;
  j["diagnostic"] = located.to_json();
  return j;
}

void print_summary(const Json& j, int depth = 0) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& [key, value] : j.items()) {
    if (value.is_array()) {
      std::cout << indent << key << ": " << value.size() << (value.size() == 1 ? " item" : " items") << "\n";
      std::size_t shown = 0;
      for (const auto& item : value) {
        if (++shown > 64) {
          std::cout << indent << "  ... (" << value.size() - 64 << " more; use --json for all)\n";
          break;
        }
        std::cout << indent << "  - " << item.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
      }
    } else if (value.is_object() && depth < 1) {
      std::cout << indent << key << ":\n";
      print_summary(value, depth + 1);
    } else {
      std::cout << indent << key << ": " << value.dump(-1, ' ', false, Json::error_handler_t::replace) << "\n";
    }
  }
}

int run_inspect(const FileOptions& o) {
  const std::string& path = o.files.front();
  auto loaded = load(path, o);
  if (!loaded) {
    if (o.json) print_json(failure_json(path, nullptr, loaded.error()));
    print_error(loaded.error());
    return exit_code_for(loaded.error());
  }
  formats::ReadOptions ro{profile_of(o), path};
  auto j = loaded->format->inspect(loaded->bytes, ro);
  if (!j) {
    if (o.json) print_json(failure_json(path, loaded->format, j.error()));
    Diagnostic d = j.error();
    if (d.file.empty()) d.file = path;
    print_error(d);
    return kExitInvalid;
  }
  Json out = *j;
  out["file"] = path;
  if (!out.contains("format")) out["format"] = std::string(loaded->format->name);
  if (o.json) {
    print_json(out);
  } else {
    print_summary(out);
  }
  return kExitOk;
}

int run_check(const FileOptions& o) {
  int worst = kExitOk;
  Json results = Json::array();
  std::size_t ok = 0, bad = 0;
  for (const auto& path : o.files) {
    auto loaded = load(path, o);
    if (!loaded) {
      worst = std::max(worst, exit_code_for(loaded.error()));
      ++bad;
      if (o.json)
        results.push_back(failure_json(path, nullptr, loaded.error()));
      else
        print_error(loaded.error());
      continue;
    }
    formats::ReadOptions ro{profile_of(o), path};
    auto report = loaded->format->check(loaded->bytes, ro);
    if (!report) {
      worst = std::max(worst, kExitInvalid);
      ++bad;
      if (o.json) {
        results.push_back(failure_json(path, loaded->format, report.error()));
      } else {
        Diagnostic d = report.error();
        if (d.file.empty()) d.file = path;
        std::cout << path << ": invalid " << loaded->format->name << "\n";
        std::cout << "  error: " << d.to_string() << "\n";
      }
      continue;
    }
    ++ok;
    if (o.json) {
      Json r;
      r["file"] = path;
      r["format"] = std::string(loaded->format->name);
      r["valid"] = true;
      r["findings"] = core::diagnostics_json(report->findings);
      results.push_back(r);
    } else {
      std::cout << path << ": ok (" << loaded->format->name << ", " << (o.compatible ? "compatible" : "strict") << ")";
      if (!report->findings.empty()) std::cout << ", " << report->findings.size() << " warning(s)";
      std::cout << "\n";
      for (const auto& d : report->findings)
        std::cout << "  " << core::to_string(d.severity) << ": " << d.to_string() << "\n";
    }
  }
  if (o.json) {
    Json j;
    j["files"] = results;
    j["summary"] = {{"valid", ok}, {"invalid", bad}};
    print_json(j);
  } else if (o.files.size() > 1) {
    std::cout << fmt::format("{} file(s) checked: {} valid, {} invalid\n", o.files.size(), ok, bad);
  }
  return worst;
}

int run_roundtrip(const FileOptions& o) {
  int worst = kExitOk;
  for (const auto& path : o.files) {
    auto loaded = load(path, o);
    if (!loaded) {
      print_error(loaded.error());
      worst = std::max(worst, exit_code_for(loaded.error()));
      continue;
    }
    if (!loaded->format->roundtrip) {
      print_error(
          Diagnostic::error("usage.roundtrip", "this format has no writer to compare with: its text is its model")
              .of(path)
              .expect("a binary format (see `sortie formats`)", std::string(loaded->format->name)));
      worst = std::max(worst, kExitUsage);
      continue;
    }
    formats::ReadOptions ro{profile_of(o), path};
    auto written = loaded->format->roundtrip(loaded->bytes, ro);
    if (!written) {
      Diagnostic d = written.error();
      if (d.file.empty()) d.file = path;
      print_error(d);
      worst = std::max(worst, kExitInvalid);
      continue;
    }
    const auto& a = loaded->bytes;
    const auto& b = *written;
    if (a == b) {
      std::cout << path << ": identical (" << loaded->format->name << ", " << a.size() << " bytes)\n";
      continue;
    }
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    std::cout << fmt::format("{}: DIFFERENT ({}): first difference at 0x{:x}; input {} bytes, written {} bytes\n", path,
                             loaded->format->name, i, a.size(), b.size());
    worst = std::max(worst, kExitInvalid);
  }
  return worst;
}

void add_profile_flags(CLI::App* cmd, FileOptions& o) {
  auto* strict =
      cmd->add_flag("--strict", o.strict, "strict profile: reject anything outside the known contract (default)");
  auto* compat =
      cmd->add_flag("--compatible", o.compatible, "compatible profile: accept known retail quirks, with warnings");
  strict->excludes(compat);
}

}  // namespace

SORTIE_COMMAND(inspect, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<FileOptions>();
  auto* cmd =
      root.add_subcommand("inspect", "Describe a file: format detected by content (and name), every field decoded");
  cmd->footer("Examples:\n  sortie inspect objects.rlb\n  sortie inspect --json MISSIONS/m1/data.tma\n");
  cmd->add_option("file", o->files, "file to inspect")->required()->expected(1);
  cmd->add_flag("--json", o->json, "print the full JSON model");
  cmd->add_option("--format", o->format, "skip detection and read as this format (see `sortie formats`)");
  add_profile_flags(cmd, *o);
  cmd->callback([o, &outcome] { outcome.exit_code = run_inspect(*o); });
});

SORTIE_COMMAND(check, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<FileOptions>();
  auto* cmd = root.add_subcommand("check", "Validate files; exit 1 when any file is invalid");
  cmd->footer("Examples:\n  sortie check --strict *.lib\n  sortie check --compatible --json sprites.lib\n");
  cmd->add_option("files", o->files, "files to check")->required();
  cmd->add_flag("--json", o->json, "machine-readable report");
  cmd->add_option("--format", o->format, "skip detection and read as this format");
  add_profile_flags(cmd, *o);
  cmd->callback([o, &outcome] { outcome.exit_code = run_check(*o); });
});

SORTIE_COMMAND(roundtrip, [](CLI::App& root, Outcome& outcome) {
  auto o = std::make_shared<FileOptions>();
  auto* cmd =
      root.add_subcommand("roundtrip", "Read and write back with the lossless writer; exit 0 only when byte-identical");
  cmd->footer("Examples:\n  sortie roundtrip data.tma Land.msh\n");
  cmd->add_option("files", o->files, "files to round-trip")->required();
  cmd->add_option("--format", o->format, "skip detection and read as this format");
  add_profile_flags(cmd, *o);
  cmd->callback([o, &outcome] { outcome.exit_code = run_roundtrip(*o); });
});

SORTIE_COMMAND(formats, [](CLI::App& root, Outcome& outcome) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = root.add_subcommand("formats", "List the file formats sortie reads and writes");
  cmd->add_flag("--json", *json, "machine-readable list");
  cmd->callback([json, &outcome] {
    Json list = Json::array();
    for (const auto& f : formats::all_formats()) {
      if (*json)
        list.push_back({{"name", std::string(f.name)}, {"description", std::string(f.description)}});
      else
        std::cout << fmt::format("{:<14} {}\n", f.name, f.description);
    }
    if (*json) print_json(list);
    outcome.exit_code = kExitOk;
  });
});

}  // namespace sortie::cli
