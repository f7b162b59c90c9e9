#pragma once
// A lossy link: decides, per datagram and from a seeded RNG stream, whether it is dropped,
// duplicated, delayed or held back past later ones. It sits below the codec: the in-process
// transport (memory_transport.hpp) and the UDP relay in front of ENet (udp_relay.hpp) feed raw
// packets through it. The same seed gives the same decisions for the same sequence of sends.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/rng.hpp"

namespace sortie::net {

struct LossSpec {
  double drop = 0.0;       // probability a datagram is lost
  double duplicate = 0.0;  // probability it arrives twice
  double reorder = 0.0;    // probability it is held back by reorder_us (arrives after later ones)
  std::uint32_t delay_us = 0;
  std::uint32_t jitter_us = 0;  // uniform extra delay 0..jitter_us
  std::uint32_t reorder_us = 30'000;
  [[nodiscard]] bool lossless() const { return drop == 0.0 && duplicate == 0.0 && reorder == 0.0; }
  [[nodiscard]] bool ideal() const { return lossless() && delay_us == 0 && jitter_us == 0; }
  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const LossSpec&, const LossSpec&) = default;
};

// "drop=0.1,dup=0.05,reorder=0.1,delay=20ms,jitter=5ms,hold=30ms" (any subset, any order;
// durations in us, ms or s; probabilities in [0, 1)). Errors: net.loss_spec.
core::Result<LossSpec> parse_loss_spec(std::string_view text);

class LossyLink {
 public:
  LossyLink(LossSpec spec, std::uint64_t seed);
  // Release times of a datagram sent at `now_us`: none (dropped), one, or two (duplicated).
  std::vector<std::uint64_t> schedule(std::uint64_t now_us);
  // Only a delay (for a channel that must stay reliable and ordered); never before `not_before`.
  std::uint64_t delay_only(std::uint64_t now_us, std::uint64_t not_before);
  [[nodiscard]] const LossSpec& spec() const { return spec_; }
  [[nodiscard]] std::uint64_t sent() const { return sent_; }
  [[nodiscard]] std::uint64_t dropped() const { return dropped_; }
  [[nodiscard]] std::uint64_t duplicated() const { return duplicated_; }
  [[nodiscard]] std::uint64_t held_back() const { return held_back_; }

 private:
  std::uint64_t one_delay(std::uint64_t now_us);
  LossSpec spec_;
  core::Rng rng_;
  std::uint64_t sent_ = 0, dropped_ = 0, duplicated_ = 0, held_back_ = 0;
};

}  // namespace sortie::net
