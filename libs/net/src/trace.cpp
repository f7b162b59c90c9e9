#include "sortie/net/trace.hpp"

#include <fmt/format.h>

#include "sortie/core/file_io.hpp"

namespace sortie::net {

std::string_view to_string(TraceChannel channel) {
  return channel == TraceChannel::resnet ? "resnet" : "netwatch";
}

void MemoryTrace::write(TraceChannel channel, std::string_view line) {
  (channel == TraceChannel::resnet ? resnet_ : netwatch_).emplace_back(line);
}

std::vector<std::string> MemoryTrace::find(TraceChannel channel, std::initializer_list<std::string_view> parts) const {
  std::vector<std::string> out;
  for (const std::string& line : lines(channel)) {
    bool all = true;
    for (std::string_view p : parts) all = all && line.find(p) != std::string::npos;
    if (all) out.push_back(line);
  }
  return out;
}

core::Status FileTrace::save() const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  for (const TraceChannel c : {TraceChannel::resnet, TraceChannel::netwatch}) {
    std::string text;
    for (const std::string& line : lines(c)) {
      text += line;
      text += '\n';
    }
    SORTIE_CHECK(core::write_file_atomic(dir_ / (c == TraceChannel::resnet ? "resnet.log" : "NetWatch.log"), text));
  }
  return {};
}

void Tracer::emit(TraceChannel channel, std::string_view event, std::string_view fields) {
  if (sink_ == nullptr) return;
  if (fields.empty()) {
    sink_->write(channel, fmt::format("t={} {}", tick_, event));
  } else {
    sink_->write(channel, fmt::format("t={} {} {}", tick_, event, fields));
  }
}

}  // namespace sortie::net
