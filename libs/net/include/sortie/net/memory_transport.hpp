#pragma once
// The in-process transport for tests: endpoints in one process exchange packets through queues,
// timed by a PlatformClock (a ManualPlatformClock makes a test fully deterministic).
//
// Delivery keeps the policies' promises, as ENet does over a lossy network:
//   reliable_ordered      every packet, once, in order; a link may only delay it;
//   unreliable_sequenced  a packet may be lost, duplicated, delayed or held back (the link's
//                         LossSpec); the receiver drops any packet older than the newest one it
//                         delivered, so duplicates and late packets never surface.
// Each direction of a connection has its own seeded LossyLink.
#include <cstdint>
#include <memory>
#include <string>

#include "sortie/core/diagnostic.hpp"
#include "sortie/net/lossy_link.hpp"
#include "sortie/net/transport.hpp"
#include "sortie/world/clock.hpp"

namespace sortie::net {

class MemoryNetwork {
 public:
  explicit MemoryNetwork(world::PlatformClock& clock);
  ~MemoryNetwork();
  MemoryNetwork(const MemoryNetwork&) = delete;
  MemoryNetwork& operator=(const MemoryNetwork&) = delete;

  // A listening endpoint. Errors: net.memory.address_taken.
  core::Result<std::unique_ptr<Transport>> listen(const std::string& address);
  // A client endpoint connected to `address`; `up` shapes client -> server, `down` the other way.
  // Both sides get a `connected` event. Errors: net.memory.no_listener.
  core::Result<std::unique_ptr<Transport>> connect(const std::string& address, const LossSpec& up = {},
                                                   const LossSpec& down = {}, std::uint64_t seed = 1);

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace sortie::net
