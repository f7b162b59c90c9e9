// Small value types: properties, event names, clocks.
#include <chrono>

#include "sortie/world/clock.hpp"
#include "sortie/world/event.hpp"
#include "sortie/world/properties.hpp"

namespace sortie::world {

// ---- properties

void Properties::set(std::string_view key, PropertyValue value) {
  for (auto& [k, v] : items_) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  items_.emplace_back(std::string(key), std::move(value));
}

const PropertyValue* Properties::find(std::string_view key) const {
  for (const auto& [k, v] : items_) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::optional<std::int64_t> Properties::get_int(std::string_view key) const {
  const PropertyValue* v = find(key);
  if (v == nullptr) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(v)) return *i;
  return std::nullopt;
}

bool Properties::erase(std::string_view key) {
  for (auto it = items_.begin(); it != items_.end(); ++it) {
    if (it->first == key) {
      items_.erase(it);
      return true;
    }
  }
  return false;
}

const RawProperty* RawProperties::first(std::string_view name) const {
  for (const RawProperty& p : items_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::size_t RawProperties::count(std::string_view name) const {
  std::size_t n = 0;
  for (const RawProperty& p : items_) n += p.name == name ? 1 : 0;
  return n;
}

// ---- events

std::string_view to_string(EventType type) {
  switch (type) {
    case EventType::arrived:
      return "arrived";
    case EventType::spawned:
      return "spawned";
    case EventType::damage:
      return "damage";
    case EventType::collision:
      return "collision";
    case EventType::timer:
      return "timer";
    case EventType::user:
      return "user";
  }
  return "custom";
}

// ---- clocks

std::uint64_t SteadyPlatformClock::now_us() {
  const auto now = std::chrono::steady_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(now).count());
}

std::uint32_t StepPacer::frame(std::uint64_t elapsed_us) {
  acc_us_ += elapsed_us;
  std::uint64_t ticks = acc_us_ / step_us_;
  if (ticks > max_ticks_) {
    dropped_us_ += acc_us_ - std::uint64_t{max_ticks_} * step_us_;
    dropped_frames_ += 1;
    acc_us_ = 0;
    return max_ticks_;
  }
  acc_us_ -= ticks * step_us_;
  return static_cast<std::uint32_t>(ticks);
}

}  // namespace sortie::world
