#include "sortie/world/trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <system_error>

#include "sortie/core/file_io.hpp"

namespace sortie::world {

Trace::Trace(TraceOptions options) : options_(std::move(options)) {
  all_ = std::find(options_.channels.begin(), options_.channels.end(), "all") != options_.channels.end();
}

bool Trace::on(std::string_view channel) const {
  return all_ || std::find(options_.channels.begin(), options_.channels.end(), channel) != options_.channels.end();
}

void Trace::write(std::string_view channel, std::string text) {
  write_at(tick_, channel, std::move(text));
}

void Trace::write_at(std::uint64_t tick, std::string_view channel, std::string text) {
  if (!on(channel)) return;
  if (lines_.size() >= options_.max_lines) {
    ++dropped_;
    return;
  }
  lines_.push_back(TraceLine{tick, std::string(channel), std::move(text)});
}

std::vector<std::string> Trace::lines_of(std::string_view channel) const {
  std::vector<std::string> out;
  for (const TraceLine& l : lines_)
    if (l.channel == channel) out.push_back(fmt::format("tick {}: {}", l.tick, l.text));
  return out;
}

core::Status Trace::save() const {
  if (options_.dir.empty()) return {};
  std::map<std::string, std::string> files;
  for (const std::string& c : options_.channels)
    if (c != "all") files[c];
  for (const TraceLine& l : lines_) files[l.channel] += fmt::format("tick {}: {}\n", l.tick, l.text);
  std::error_code ec;
  std::filesystem::create_directories(options_.dir, ec);
  for (const auto& [channel, text] : files)
    SORTIE_CHECK(core::write_file_atomic(options_.dir / (channel + ".log"), text));
  return {};
}

}  // namespace sortie::world
