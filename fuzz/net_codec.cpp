// Fuzzes the net codec (packets of frames, every message's payload reader) and the session's
// resource readers. A packet that decodes must encode back to the same bytes; decoded messages
// are then fed to a replica (when the packet opens with NET_WELCOME) and sync states to a
// receiver, which must never crash; a resource that reads must write back to the same bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "sortie/net/codec.hpp"
#include "sortie/net/replica.hpp"
#include "sortie/net/setup.hpp"
#include "sortie/net/sync_state.hpp"

namespace {

using namespace sortie;

void check_packet(core::ByteView data) {
  auto messages = net::decode_packet(data);
  if (!messages) return;
  core::ByteWriter out;
  for (const net::Message& m : *messages) {
    if (!net::write_frame(out, m)) __builtin_trap();  // everything that reads must write
  }
  if (out.size() != data.size() || !std::equal(out.buffer().begin(), out.buffer().end(), data.begin())) {
    __builtin_trap();
  }
  net::SyncReceiver receiver;
  std::unique_ptr<net::Replica> replica;
  for (const net::Message& m : *messages) {
    if (const auto* s = std::get_if<net::SyncState>(&m)) (void)receiver.apply(*s);
    if (const auto* w = std::get_if<net::Welcome>(&m); w != nullptr && !replica) {
      auto r = net::Replica::create(*w);
      if (r) replica = std::move(*r);
      continue;
    }
    if (replica && !replica->feed(m)) break;  // the first refusal ends the stream
  }
}

void check_resources(core::ByteView data) {
  if (auto t = net::decode_terrain(data)) {
    const core::Bytes back = net::encode_terrain(*t);
    if (!std::equal(back.begin(), back.end(), data.begin(), data.end())) __builtin_trap();
  }
  if (auto p = net::decode_prototypes(data)) {
    const core::Bytes back = net::encode_prototypes(*p);
    if (!std::equal(back.begin(), back.end(), data.begin(), data.end())) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const core::ByteView bytes(data, size);
  check_packet(bytes);
  check_resources(bytes);
  return 0;
}
