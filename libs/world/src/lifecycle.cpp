#include "sortie/world/lifecycle.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace sortie::world {

using core::Diagnostic;
using core::fail;

std::string_view to_string(Stage stage) {
  switch (stage) {
    case Stage::process_created:
      return "PROCESS_CREATED";
    case Stage::library_ready:
      return "LIBRARY_READY";
    case Stage::entrypoints_ready:
      return "ENTRYPOINTS_READY";
    case Stage::shell_created:
      return "SHELL_CREATED";
    case Stage::game_created:
      return "GAME_CREATED";
    case Stage::subsystems_ready:
      return "SUBSYSTEMS_READY";
    case Stage::main_loop:
      return "MAIN_LOOP";
    case Stage::subsystems_closed:
      return "SUBSYSTEMS_CLOSED";
    case Stage::game_deleted:
      return "GAME_DELETED";
    case Stage::shell_deleted:
      return "SHELL_DELETED";
  }
  return "UNKNOWN";
}

Lifecycle::~Lifecycle() {
  shut_down();
}

core::Status Lifecycle::add(Stage stage, std::string name, StartFn start, StopFn stop) {
  if (ran_) return fail(Diagnostic::error("lifecycle.state", "subsystems can only be added before start-up").in(name));
  if (stage < Stage::library_ready || stage > Stage::subsystems_ready) {
    return fail(Diagnostic::error("lifecycle.stage", "a subsystem belongs to a forward stage")
                    .in(name)
                    .expect("LIBRARY_READY..SUBSYSTEMS_READY", std::string(to_string(stage))));
  }
  if (std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == name; })) {
    return fail(Diagnostic::error("lifecycle.duplicate", "a subsystem with this name is already registered").in(name));
  }
  Entry entry{stage, std::move(name), std::move(start), std::move(stop), false};
  auto pos =
      std::upper_bound(entries_.begin(), entries_.end(), stage, [](Stage s, const Entry& e) { return s < e.stage; });
  entries_.insert(pos, std::move(entry));
  return {};
}

void Lifecycle::note(std::string line) {
  if (observer_) observer_(line);
  trace_.push_back(std::move(line));
}

void Lifecycle::enter(Stage stage) {
  stage_ = stage;
  note(fmt::format("stage {}", to_string(stage)));
}

core::Status Lifecycle::start_up() {
  if (ran_)
    return fail(Diagnostic::error("lifecycle.state", "start_up() runs once")
                    .expect("PROCESS_CREATED", std::string(to_string(stage_))));
  ran_ = true;
  for (auto stage = static_cast<std::uint8_t>(Stage::library_ready);
       stage <= static_cast<std::uint8_t>(Stage::subsystems_ready); ++stage) {
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      Entry& e = entries_[i];
      if (static_cast<std::uint8_t>(e.stage) != stage) continue;
      note("start " + e.name);
      core::Status status = e.start ? e.start() : core::Status{};
      if (!status) {
        note("fail " + e.name);
        cause_ = status.error();
        const Diagnostic& cause = *cause_;
        Diagnostic d = Diagnostic::error("lifecycle.start_failed", fmt::format("subsystem '{}' failed to start: {}: {}",
                                                                               e.name, cause.code, cause.message))
                           .in(fmt::format("{}.{}", to_string(e.stage), e.name));
        shut_down();
        return fail(std::move(d));
      }
      e.started = true;
      start_order_.push_back(i);
    }
    enter(static_cast<Stage>(stage));
  }
  enter(Stage::main_loop);
  return {};
}

void Lifecycle::stop_range(Stage stage) {
  while (!start_order_.empty()) {
    Entry& e = entries_[start_order_.back()];
    if (e.stage != stage) return;
    start_order_.pop_back();
    note("stop " + e.name);
    if (e.stop) e.stop();
    e.started = false;
  }
}

void Lifecycle::shut_down() {
  if (stage_ == Stage::shell_deleted || (!ran_ && stage_ == Stage::process_created)) return;
  // Subsystems (SUBSYSTEMS_READY) close first, then the game, then shell and library.
  stop_range(Stage::subsystems_ready);
  enter(Stage::subsystems_closed);
  stop_range(Stage::game_created);
  enter(Stage::game_deleted);
  stop_range(Stage::shell_created);
  stop_range(Stage::entrypoints_ready);
  stop_range(Stage::library_ready);
  enter(Stage::shell_deleted);
}

bool Lifecycle::started(std::string_view name) const {
  return std::any_of(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.name == name && e.started; });
}

}  // namespace sortie::world
