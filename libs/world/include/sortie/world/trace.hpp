#pragma once
// Trace channels: one sink for every area's diagnostic lines (docs/traces.md). A channel is a
// name ("queue", "control", "lua", "lifecycle", ...); the channels that are on are given once
// (TraceOptions::channels, "all" turns every channel on) and every other channel is off. A line
// is stamped with the tick it was written at; save() writes `<channel>.log` ("tick N: text" per
// line) into the trace directory, atomically, one file per channel that was asked for (an empty
// file when the channel wrote nothing).
//
// Off costs nothing: a world without a trace has a null trace(), and a writer asks first
//   if (auto* t = world::traced(world, "queue")) t->write("queue", fmt::format(...));
// so no line is formatted for a channel that is off. Traces are presentation: they never change
// the simulation or its state hash.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/world/limits.hpp"

namespace sortie::world {

struct TraceOptions {
  std::vector<std::string> channels;       // channels that are on; "all" turns every channel on
  std::filesystem::path dir;               // where save() puts <channel>.log (empty: nowhere)
  std::size_t max_lines = kMaxTraceLines;  // lines kept; more are counted (dropped()), not kept
};

struct TraceLine {
  std::uint64_t tick = 0;
  std::string channel;  // "ai", "lua", "queue", "control", ...
  std::string text;
};

class Trace {
 public:
  explicit Trace(TraceOptions options = {});

  [[nodiscard]] bool on(std::string_view channel) const;
  [[nodiscard]] bool any() const { return all_ || !options_.channels.empty(); }
  [[nodiscard]] const TraceOptions& options() const { return options_; }

  // The tick new lines are stamped with; the world sets it as its clock moves.
  void set_tick(std::uint64_t tick) { tick_ = tick; }
  [[nodiscard]] std::uint64_t tick() const { return tick_; }

  // A line of `channel` at tick(); nothing when the channel is off.
  void write(std::string_view channel, std::string text);
  void write_at(std::uint64_t tick, std::string_view channel, std::string text);

  [[nodiscard]] const std::vector<TraceLine>& lines() const { return lines_; }
  // The lines of one channel as they go into its file ("tick N: text").
  [[nodiscard]] std::vector<std::string> lines_of(std::string_view channel) const;
  [[nodiscard]] std::uint64_t dropped() const { return dropped_; }

  // Writes <channel>.log for every channel named in the options (with "all": every channel that
  // wrote a line) into options().dir; nothing when it is empty. Errors: io.* of the writes.
  [[nodiscard]] core::Status save() const;

 private:
  TraceOptions options_;
  bool all_ = false;
  std::uint64_t tick_ = 0;
  std::vector<TraceLine> lines_;
  std::uint64_t dropped_ = 0;
};

// Trace channel names written by the areas (docs/traces.md); "all" turns every one on, and any
// other name is accepted too (a script's own channel).
inline constexpr std::string_view kTraceChannelNames[] = {"lifecycle", "queue",   "behavior", "wizard",   "control",
                                                          "input",     "camera",  "sound",    "scenario", "lua",
                                                          "ai",        "superai", "fx"};

}  // namespace sortie::world
