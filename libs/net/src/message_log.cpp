#include "sortie/net/message_log.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/net/codec.hpp"
#include "sortie/net/replica.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

namespace {

void put_header(core::ByteWriter& out) {
  out.bytes(std::string_view("SNLG"));
  out.u32(kMessageLogVersion);
  out.u16(kProtocolVersion);
  out.bytes(core::ByteView(kApplicationGuid.data(), kApplicationGuid.size()));
}

bool stream_message(MessageId id) {
  switch (id) {
    case MessageId::mission_data_path:
    case MessageId::append_resource:
    case MessageId::create_remote_player:
    case MessageId::create_mirror:
    case MessageId::change_object_owner:
    case MessageId::pause_remote_player:
    case MessageId::kill_player:
    case MessageId::set_time:
    case MessageId::command:
    case MessageId::end_message_seq:
      return true;
    default:
      return false;
  }
}

}  // namespace

core::Bytes write_message_log(const Welcome& welcome, const std::vector<core::Bytes>& setup_frames,
                              const std::vector<std::vector<core::Bytes>>& tick_frames) {
  core::ByteWriter out;
  put_header(out);
  Welcome w = welcome;
  w.live_tick = 0;
  out.bytes(encode_message(w).value());  // a fixed-size message: it always encodes
  for (const core::Bytes& f : setup_frames) out.bytes(f);
  for (const auto& tick : tick_frames) {
    for (const core::Bytes& f : tick) out.bytes(f);
  }
  return out.take();
}

core::Result<core::Bytes> write_message_log(const MessageLog& log) {
  core::ByteWriter out;
  put_header(out);
  SORTIE_CHECK(write_frame(out, log.welcome));
  for (const Message& m : log.messages) SORTIE_CHECK(write_frame(out, m));
  return out.take();
}

core::Result<MessageLog> read_message_log(core::ByteView bytes) {
  core::ByteReader in(bytes, "message log");
  in.set_code_prefix("net_log");
  SORTIE_TRY(const core::ByteView magic, in.bytes(4));
  if (core::as_chars(magic) != "SNLG") {
    return fail(in.error_at(0, "net_log.magic", "not a sortie message log").expect("SNLG", core::to_hex(magic)));
  }
  SORTIE_TRY(const std::uint32_t version, in.u32());
  if (version != kMessageLogVersion) {
    return fail(in.error_at(4, "net_log.version", "unknown message log version")
                    .expect(std::to_string(kMessageLogVersion), std::to_string(version)));
  }
  SORTIE_TRY(const std::uint16_t protocol, in.u16());
  if (protocol != kProtocolVersion) {
    return fail(in.error_at(8, "net_log.version", "log of another protocol version")
                    .expect(std::to_string(kProtocolVersion), std::to_string(protocol)));
  }
  SORTIE_TRY(const core::ByteView guid, in.bytes(16));
  if (!std::equal(guid.begin(), guid.end(), kApplicationGuid.begin())) {
    return fail(in.error_at(10, "net_log.guid", "log of another application")
                    .expect(std::string(kApplicationGuidText), core::to_hex(guid)));
  }
  MessageLog log;
  {
    const std::size_t at = in.offset();
    SORTIE_TRY(Message first, read_frame(in));
    const auto* welcome = std::get_if<Welcome>(&first);
    if (welcome == nullptr) {
      return fail(in.error_at(at, "net_log.welcome", "the first frame of a log is NET_WELCOME")
                      .expect("NET_WELCOME", std::string(message_name(id_of(first)))));
    }
    log.welcome = *welcome;
  }
  while (!in.at_end()) {
    const std::size_t at = in.offset();
    SORTIE_TRY(Message m, read_frame(in));
    if (!stream_message(id_of(m))) {
      return fail(in.error_at(at, "net_log.message", "message outside the authoritative stream")
                      .in(fmt::format("messages[{}]", log.messages.size()))
                      .expect("setup or sequence messages", std::string(message_name(id_of(m)))));
    }
    log.messages.push_back(std::move(m));
  }
  return log;
}

core::Result<ReplayOutcome> replay_message_log(const MessageLog& log, Tracer* tracer) {
  SORTIE_TRY(auto replica, Replica::create(log.welcome, tracer));
  for (std::size_t i = 0; i < log.messages.size(); ++i) {
    auto st = replica->feed(log.messages[i]);
    if (!st) return fail(std::move(st).error().within(fmt::format("messages[{}]", i)));
  }
  if (!replica->setup_complete()) {
    return fail(Diagnostic::error("net_log.truncated", "the log ends inside the setup")
                    .expect(fmt::format("{} setup messages", log.welcome.setup_count), "fewer"));
  }
  if (replica->pending_sequence() != 0) {
    return fail(
        Diagnostic::error("net_log.truncated", "the last sequence has no end marker")
            .expect("GMSG_END_MESSAGE_SEQ", fmt::format("{} messages after the last", replica->pending_sequence())));
  }
  ReplayOutcome out;
  out.ticks = replica->ticks();
  out.final_hash = replica->state_hash();
  out.objects = replica->world().live_count();
  out.players = replica->players().size();
  out.mission_path = replica->mission_path();
  return out;
}

}  // namespace sortie::net
