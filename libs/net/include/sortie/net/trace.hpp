#pragma once
// The two trace channels of seed 001, kept apart:
//   resnet    (resnet.log)    transport and resources: connections, packets, bad peers and their
//                             reasons, resource transfers and timeouts;
//   netwatch  (NetWatch.log)  players and game objects: the transport id <-> player number
//                             mapping, mirrors, ownership, what a leaving player's objects became,
//                             desyncs.
// A line is "t=<tick> <event> key=value ..." (stable keys; values without spaces).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::net {

enum class TraceChannel : std::uint8_t { resnet, netwatch };
std::string_view to_string(TraceChannel channel);

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void write(TraceChannel channel, std::string_view line) = 0;
};

// Keeps every line (tests; and FileTrace's buffer).
class MemoryTrace : public TraceSink {
 public:
  void write(TraceChannel channel, std::string_view line) override;
  [[nodiscard]] const std::vector<std::string>& lines(TraceChannel channel) const {
    return channel == TraceChannel::resnet ? resnet_ : netwatch_;
  }
  // Lines of `channel` that contain every one of `parts`.
  [[nodiscard]] std::vector<std::string> find(TraceChannel channel,
                                              std::initializer_list<std::string_view> parts) const;

 private:
  std::vector<std::string> resnet_;
  std::vector<std::string> netwatch_;
};

// DIR/resnet.log and DIR/NetWatch.log, written atomically by save().
class FileTrace : public MemoryTrace {
 public:
  explicit FileTrace(std::filesystem::path dir) : dir_(std::move(dir)) {}
  core::Status save() const;

 private:
  std::filesystem::path dir_;
};

// Stamps lines with the session tick and forwards them; silent without a sink.
class Tracer {
 public:
  Tracer() = default;
  explicit Tracer(TraceSink* sink) : sink_(sink) {}
  void set_tick(std::uint64_t tick) { tick_ = tick; }
  void resnet(std::string_view event, std::string_view fields = {}) { emit(TraceChannel::resnet, event, fields); }
  void netwatch(std::string_view event, std::string_view fields = {}) { emit(TraceChannel::netwatch, event, fields); }
  [[nodiscard]] bool enabled() const { return sink_ != nullptr; }

 private:
  void emit(TraceChannel channel, std::string_view event, std::string_view fields);
  TraceSink* sink_ = nullptr;
  std::uint64_t tick_ = 0;
};

}  // namespace sortie::net
