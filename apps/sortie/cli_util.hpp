#pragma once
// Small helpers shared by the CLI commands: progress on stderr. Reporting a diagnostic and the exit
// code rule are shared with the viewer (sortie/cli/report.hpp).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "sortie/cli/report.hpp"
#include "sortie/mission/mission_loader.hpp"

namespace sortie::cli {

// A load that failed before anything was registered: with `json` {"ok": false, "load": ...} on
// stdout, each failure on stderr, then "sortie: load of M failed: N failure(s); <hint>"; exit 1.
int fail_load(const mission::MissionLoadReport& report, bool json, std::string_view hint);

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

}  // namespace sortie::cli
