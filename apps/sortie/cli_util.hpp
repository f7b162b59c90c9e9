#pragma once
// Small helpers shared by the CLI commands: exit codes, reading inputs, printing results.
#include <filesystem>
#include <optional>
#include <string>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"

namespace sortie::cli {

// Exit codes (CONVENTIONS.md): 0 ok, 1 invalid input or findings, 2 usage or I/O error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// Exit code for a diagnostic: I/O and usage codes ("io.*", "usage.*") and a mission name that
// does not exist (load.mission_missing) give 2, the rest 1.
int exit_code_for(const core::Diagnostic& d);

// Prints "sortie: <diagnostic>" to stderr.
void print_error(const core::Diagnostic& d);
// Prints JSON to stdout (pretty, sorted keys, trailing newline).
void print_json(const core::Json& j);

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
