#include "cli_util.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace sortie::cli {

int exit_code_for(const core::Diagnostic& d) {
  if (d.code.rfind("io.", 0) == 0 || d.code.rfind("usage.", 0) == 0) return kExitUsage;
  if (d.code == "load.mission_missing") return kExitUsage;  // the mission named on the command line does not exist
  return kExitInvalid;
}

void print_error(const core::Diagnostic& d) {
  std::cerr << "sortie: " << d.to_string() << "\n";
}

void print_json(const core::Json& j) {
  std::cout << core::dump_json(j) << std::flush;
}

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

Progress::Progress(std::string label, std::uint64_t total)
    : label_(std::move(label)), total_(total), enabled_(stderr_is_terminal()) {}

Progress::~Progress() {
  finish();
}

void Progress::update(std::uint64_t done, std::string_view detail) {
  if (!enabled_ || finished_) return;
  const int percent = total_ == 0 ? 100 : static_cast<int>(done * 100 / total_);
  if (percent == last_percent_ && detail.empty()) return;
  last_percent_ = percent;
  constexpr int kWidth = 30;
  const int filled = percent * kWidth / 100;
  std::string bar(static_cast<std::size_t>(filled), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r%s [%s] %3d%% %.*s\033[K", label_.c_str(), bar.c_str(), percent,
               static_cast<int>(detail.size()), detail.data());
  std::fflush(stderr);
}

void Progress::finish() {
  if (!enabled_ || finished_) return;
  finished_ = true;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace sortie::cli
