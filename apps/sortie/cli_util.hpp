#pragma once
// Small helpers shared by the CLI commands: progress on stderr. Reporting a diagnostic and the exit
// code rule are shared with the viewer (sortie/cli/report.hpp).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/cli/report.hpp"
#include "sortie/mission/mission_loader.hpp"
#include "sortie/mission/mission_run.hpp"

namespace sortie::cli {

// A load that failed before anything was registered: with `json` {"ok": false, "load": ...} on
// stdout, each failure on stderr, then "sortie: load of M failed: N failure(s); <hint>"; exit 1.
int fail_load(const mission::MissionLoadReport& report, bool json, std::string_view hint);

// Prints a run over several files (formats::CheckRun, squad::MapCheckRun: to_json(),
// to_text(errors), exit_code()): with `json` its JSON, else its text on stdout and the files that
// could not be read on stderr. Returns its exit code.
template <class Run>
int print_run(const Run& run, bool json) {
  if (json) {
    print_json(run.to_json());
    return run.exit_code();
  }
  std::vector<core::Diagnostic> errors;
  const std::string text = run.to_text(errors);
  for (const auto& d : errors) print_error(d);
  std::fputs(text.c_str(), stdout);
  return run.exit_code();
}

// Prints a report (to_json(), to_text()): with `json` its JSON, else its text on stdout.
template <class Report>
void print_report(const Report& report, bool json) {
  if (json)
    print_json(report.to_json());
  else
    std::fputs(report.to_text().c_str(), stdout);
}

// True when stderr is a terminal (progress bars are drawn only then).
bool stderr_is_terminal();

// A one-line progress indicator on stderr; silent when stderr is not a terminal.
class Progress {
 public:
  explicit Progress(std::string label, std::uint64_t total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void update(std::uint64_t done, std::string_view detail = {});
  void finish();

 private:
  std::string label_;
  std::uint64_t total_;
  bool enabled_;
  bool finished_ = false;
  int last_percent_ = -1;
};

// Progress bars of `sortie run` on a terminal's stderr: the loader's nine phases, then the ticks.
struct RunProgress {
  std::optional<Progress> load, ticks;
  int phase = 0;
  void attach(mission::MissionRunRequest& rq);  // sets on_load_phase and on_tick
  void finish();
};

}  // namespace sortie::cli
