#include "sortie/net/codec.hpp"

#include <fmt/format.h>

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

template <class T>
core::Result<Message> read_as(core::ByteReader& in) {
  SORTIE_TRY(T m, T::read(in));
  return Message(std::move(m));
}

core::Result<Message> read_payload(MessageId id, core::ByteReader& in) {
  switch (id) {
    case MessageId::create_remote_player:
      return read_as<CreateRemotePlayer>(in);
    case MessageId::append_resource:
      return read_as<AppendResource>(in);
    case MessageId::change_object_owner:
      return read_as<ChangeObjectOwner>(in);
    case MessageId::set_player_data:
      return read_as<SetPlayerData>(in);
    case MessageId::mission_data_path:
      return read_as<MissionDataPath>(in);
    case MessageId::take_object:
      return read_as<TakeObject>(in);
    case MessageId::text_for_player:
      return read_as<TextForPlayer>(in);
    case MessageId::sync_state:
      return read_as<SyncState>(in);
    case MessageId::create_mirror:
      return read_as<CreateMirror>(in);
    case MessageId::pause_remote_player:
      return read_as<PauseRemotePlayer>(in);
    case MessageId::confirm_player_data:
      return read_as<ConfirmPlayerData>(in);
    case MessageId::kill_player:
      return read_as<KillPlayer>(in);
    case MessageId::set_time:
      return read_as<SetTime>(in);
    case MessageId::set_player_number:
      return read_as<SetPlayerNumber>(in);
    case MessageId::end_message_seq:
      return read_as<EndMessageSeq>(in);
    case MessageId::remove_resource:
      return read_as<RemoveResource>(in);
    case MessageId::hello:
      return read_as<Hello>(in);
    case MessageId::welcome:
      return read_as<Welcome>(in);
    case MessageId::reject:
      return read_as<Reject>(in);
    case MessageId::order:
      return read_as<Order>(in);
    case MessageId::command:
      return read_as<TickCommand>(in);
    case MessageId::ack:
      return read_as<Ack>(in);
    case MessageId::collision_detected:
      break;
  }
  return fail(Diagnostic::error("net.message.local_only", "message never travels on the wire"));
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

core::Status write_frame(core::ByteWriter& out, const Message& message) {
  const MessageSpec& spec = spec_of(id_of(message));
  core::ByteWriter body;
  std::visit([&](const auto& m) { m.write(body); }, message);
  if (body.size() > spec.max_payload) {
    return fail(Diagnostic::error("net.encode.oversize", "message payload exceeds its maximum size")
                    .in(std::string(spec.name))
                    .expect(fmt::format("<= {} bytes", spec.max_payload), fmt::format("{} bytes", body.size())));
  }
  out.u8(static_cast<std::uint8_t>(spec.id));
  out.u16(static_cast<std::uint16_t>(body.size()));
  out.bytes(body.buffer());
  return {};
}

core::Result<core::Bytes> encode_message(const Message& message) {
  core::ByteWriter out;
  SORTIE_CHECK(write_frame(out, message));
  return out.take();
}

core::Result<core::Bytes> encode_packet(std::span<const Message> messages) {
  if (messages.empty()) return fail(Diagnostic::error("net.encode.empty", "a packet holds at least one message"));
  const Delivery delivery = spec_of(id_of(messages.front())).delivery;
  core::ByteWriter out;
  for (const Message& m : messages) {
    if (spec_of(id_of(m)).delivery != delivery) {
      return fail(Diagnostic::error("net.encode.mixed_delivery", "a packet holds messages of one delivery policy")
                      .expect(std::string(to_string(delivery)), std::string(message_name(id_of(m)))));
    }
    SORTIE_CHECK(write_frame(out, m));
  }
  if (out.size() > kMaxPacketBytes) {
    return fail(Diagnostic::error("net.encode.oversize", "packet exceeds the maximum packet size")
                    .expect(fmt::format("<= {} bytes", kMaxPacketBytes), fmt::format("{} bytes", out.size())));
  }
  return out.take();
}

core::Result<Message> read_frame(core::ByteReader& in) {
  const std::size_t at = in.offset();
  if (in.remaining() < kFrameHeaderBytes) {
    return fail(in.error("net.frame.truncated", "frame header runs past the end of the packet")
                    .expect(fmt::format("{} bytes", kFrameHeaderBytes), fmt::format("{} bytes left", in.remaining())));
  }
  SORTIE_TRY(const std::uint8_t raw_id, in.u8());
  SORTIE_TRY(const std::uint16_t length, in.u16());
  const MessageSpec* spec = find_message(raw_id);
  if (spec == nullptr) {
    return fail(in.error_at(at, "net.message.unknown_id", "unassigned message id")
                    .expect("an id of the message table", std::to_string(raw_id)));
  }
  if (spec->direction == Direction::local_only) {
    return fail(in.error_at(at, "net.message.local_only", "message of the local queue never travels on the wire")
                    .in(std::string(spec->name)));
  }
  if (length > spec->max_payload) {
    return fail(in.error_at(at, "net.frame.oversize", "frame length exceeds the message's maximum payload")
                    .in(std::string(spec->name))
                    .expect(fmt::format("<= {} bytes", spec->max_payload), fmt::format("{} bytes", length)));
  }
  if (length > in.remaining()) {
    return fail(in.error_at(at, "net.frame.truncated", "frame length runs past the end of the packet")
                    .in(std::string(spec->name))
                    .expect(fmt::format("{} bytes", length), fmt::format("{} bytes left", in.remaining())));
  }
  SORTIE_TRY(const core::ByteView payload, in.bytes(length));
  core::ByteReader body(payload, in.file(), in.absolute_offset() - length);
  body.set_code_prefix("net.message");
  body.set_field(std::string(spec->name));
  SORTIE_TRY(Message m, read_payload(spec->id, body));
  SORTIE_CHECK(body.require_end(spec->name));
  return m;
}

core::Result<std::vector<Message>> decode_packet(core::ByteView packet, std::optional<Delivery> channel) {
  if (packet.empty()) return fail(Diagnostic::error("net.packet.empty", "empty packet"));
  if (packet.size() > kMaxPacketBytes) {
    return fail(Diagnostic::error("net.packet.oversize", "packet exceeds the maximum packet size")
                    .expect(fmt::format("<= {} bytes", kMaxPacketBytes), fmt::format("{} bytes", packet.size())));
  }
  core::ByteReader in(packet, "packet");
  in.set_code_prefix("net.frame");
  std::vector<Message> out;
  while (!in.at_end()) {
    const std::size_t at = in.offset();
    SORTIE_TRY(Message m, read_frame(in));
    if (channel && spec_of(id_of(m)).delivery != *channel) {
      return fail(in.error_at(at, "net.message.delivery", "message arrived on a channel of another delivery policy")
                      .in(std::string(message_name(id_of(m))))
                      .expect(std::string(to_string(spec_of(id_of(m)).delivery)), std::string(to_string(*channel))));
    }
    out.push_back(std::move(m));
  }
  return out;
}

Reason reason_for(const core::Diagnostic& d) {
  const std::string_view code = d.code;
  if (code == "net.message.unknown_id" || code == "net.message.local_only") return Reason::unknown_message;
  if (code == "net.message.delivery") return Reason::unexpected_message;
  if (code == "net.packet.oversize" || starts_with(code, "net.frame.") || code == "net.message.too_long") {
    return Reason::oversize;
  }
  return Reason::malformed;
}

core::Status PacketBuilder::add(const Message& message) {
  SORTIE_TRY(const core::Bytes frame, encode_message(message));
  if (frame.size() > limit_) {
    return fail(Diagnostic::error("net.encode.oversize", "one message exceeds the packet limit")
                    .expect(fmt::format("<= {} bytes", limit_), fmt::format("{} bytes", frame.size())));
  }
  if (current_.size() + frame.size() > limit_) {
    packets_.push_back(current_.take());
    current_ = core::ByteWriter{};
  }
  current_.bytes(frame);
  return {};
}

std::vector<core::Bytes> PacketBuilder::take() {
  if (current_.size() != 0) {
    packets_.push_back(current_.take());
    current_ = core::ByteWriter{};
  }
  return std::exchange(packets_, {});
}

}  // namespace sortie::net
