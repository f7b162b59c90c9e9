#include "cli_util.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace sortie::cli {

int fail_load(const mission::MissionLoadReport& report, bool json, std::string_view hint) {
  if (json) print_json(core::Json{{"ok", false}, {"load", report.to_json()}});
  for (const auto& d : report.failures) print_error(d);
  std::cerr << fmt::format("{}: load of {} failed: {} failure(s); {}\n", program_name(), report.mission,
                           report.failures.size(), hint);
  return kExitInvalid;
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

void RunProgress::attach(mission::MissionRunRequest& rq) {
  rq.on_load_phase = [this](std::string_view mission, std::string_view name) {
    if (!load) load.emplace("loading " + std::string(mission), 9);
    load->update(static_cast<std::uint64_t>(++phase), name);
  };
  rq.on_tick = [this](std::uint64_t t, std::uint64_t total) {
    if (load) load->finish();
    if (!ticks) ticks.emplace("running", total);
    if (t % 32 == 0) ticks->update(t);
  };
}

void RunProgress::finish() {
  if (load) load->finish();
  if (ticks) ticks->finish();
}

}  // namespace sortie::cli
