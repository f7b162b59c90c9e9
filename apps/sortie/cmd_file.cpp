// `sortie inspect`, `sortie check`, `sortie roundtrip`, `sortie formats`: the format-generic
// commands over the format table (libs/formats: formats.hpp, files.hpp).
#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/report.hpp"
#include "sortie/formats/files.hpp"

namespace sortie::cli {
namespace {

struct FileOptions {
  std::vector<std::string> files;
  std::string format;  // forced format name; empty = detect
  bool json = false;
  bool strict = false;
  bool compatible = false;

  [[nodiscard]] formats::FileRequest request() const {
    return formats::FileRequest{files, format, compatible ? core::Profile::compatible : core::Profile::strict};
  }
};

int run_inspect(const FileOptions& o) {
  const std::string& path = o.files.front();
  auto file = formats::open_file(path, o.format);
  if (!file) {
    if (o.json) print_json(formats::failure_json(path, nullptr, file.error()));
    print_error(file.error());
    return exit_code_for(file.error());
  }
  auto model = formats::inspect_file(*file, path, o.request().profile);
  if (!model) {
    if (o.json) print_json(formats::failure_json(path, file->format, model.error()));
    print_error(model.error());
    return kExitInvalid;
  }
  if (o.json)
    print_json(*model);
  else
    std::cout << formats::json_summary(*model);
  return kExitOk;
}

int run_check(const FileOptions& o) {
  return print_run(formats::check_files(o.request()), o.json);
}

int run_roundtrip(const FileOptions& o) {
  int worst = kExitOk;
  for (const auto& path : o.files) {
    auto r = formats::roundtrip_file(path, o.request());
    if (!r) {
      print_error(r.error());
      worst = std::max(worst, exit_code_for(r.error()));
      continue;
    }
    std::cout << r->to_text();
    if (r->first_difference) worst = std::max(worst, kExitInvalid);
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
    if (*json)
      print_json(formats::formats_json());
    else
      std::cout << formats::formats_text();
    outcome.exit_code = kExitOk;
  });
});

}  // namespace sortie::cli
