#pragma once
// Frames and packets. A frame is u8 id, u16 payload length, payload; a packet is one or more
// frames of one delivery policy, at most kMaxPacketBytes. The decoder checks, in this order and
// before any payload byte is read: the packet size, the 3-byte header, the id (assigned and not
// local-only), the length against the message's maximum, the length against the bytes left.
// The payload reader is then bounded to exactly `length` bytes and must end there.
//
// Diagnostic codes (and the Reason a server gives a peer that sends them, reason_for()):
//   net.packet.empty, net.message.* (bad values, eof inside a payload, trailing bytes)  malformed
//   net.packet.oversize, net.frame.truncated, net.frame.oversize, net.message.too_long  oversize
//   net.message.unknown_id, net.message.local_only                                      unknown_message
//   net.message.delivery (a frame on the wrong channel)                                 unexpected_message
#include <optional>
#include <span>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/net/messages.hpp"
#include "sortie/net/protocol.hpp"

namespace sortie::net {

// Appends one frame. Errors: net.encode.oversize (the payload exceeds the message's maximum:
// a caller broke a documented limit).
core::Status write_frame(core::ByteWriter& out, const Message& message);
// The frame of one message.
core::Result<core::Bytes> encode_message(const Message& message);
// One packet of `messages` (all of one delivery policy). Errors: net.encode.oversize,
// net.encode.mixed_delivery, net.encode.empty.
core::Result<core::Bytes> encode_packet(std::span<const Message> messages);

// Reads one frame at the reader's position (bounded as described above).
core::Result<Message> read_frame(core::ByteReader& in);
// Every frame of a packet; the packet must end exactly after the last frame. With `channel`,
// every message must have that delivery policy (net.message.delivery).
core::Result<std::vector<Message>> decode_packet(core::ByteView packet, std::optional<Delivery> channel = std::nullopt);

// The reason a server gives for disconnecting a peer whose packet failed with `d`.
Reason reason_for(const core::Diagnostic& d);

// Splits messages of one delivery policy into packets of at most kMaxPacketBytes, in order.
class PacketBuilder {
 public:
  explicit PacketBuilder(std::size_t limit = kMaxPacketBytes) : limit_(limit) {}
  // Errors: net.encode.oversize.
  core::Status add(const Message& message);
  [[nodiscard]] bool empty() const { return packets_.empty() && current_.size() == 0; }
  // The packets so far (the open one closed); the builder is empty afterwards.
  std::vector<core::Bytes> take();

 private:
  std::size_t limit_;
  core::ByteWriter current_;
  std::vector<core::Bytes> packets_;
};

}  // namespace sortie::net
