// The server's tick, output and host operations (input: server_input.cpp).
#include "sortie/net/server.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sortie/core/hash.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/message_log.hpp"
#include "sortie/world/command_registry.hpp"

namespace sortie::net {

using core::Diagnostic;
using core::fail;

std::string_view to_string(PeerStage stage) {
  switch (stage) {
    case PeerStage::hello:
      return "hello";
    case PeerStage::setup:
      return "setup";
    case PeerStage::ready:
      return "ready";
    case PeerStage::closing:
      return "closing";
  }
  return "unknown";
}

void TickTimes::add(std::uint64_t us) {
  constexpr std::size_t kBuckets = 10'000;  // 100 ms
  if (buckets_.empty()) buckets_.assign(kBuckets + 1, 0);
  ++buckets_[std::min<std::uint64_t>(us / kBucketUs, kBuckets)];
  ++count_;
  total_us_ += us;
  max_us_ = std::max(max_us_, us);
}

std::uint64_t TickTimes::quantile_us(double q) const {
  if (count_ == 0) return 0;
  const auto want = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(count_)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= want) return i + 1 == buckets_.size() ? max_us_ : std::min<std::uint64_t>((i + 1) * kBucketUs, max_us_);
  }
  return max_us_;
}

bool Server::Bucket::take(double n, std::uint64_t now_us) {
  if (now_us > last_us) {
    tokens = std::min(capacity, tokens + rate * static_cast<double>(now_us - last_us) / 1e6);
    last_us = now_us;
  }
  if (tokens < n) return false;
  tokens -= n;
  return true;
}

Server::Server(Transport& transport, ServerConfig config, world::PlatformClock& clock, TraceSink* trace)
    : transport_(transport), config_(config), clock_(clock), tracer_(trace), watcher_(1) {}

Server::~Server() = default;

core::Result<std::unique_ptr<Server>> Server::host(Transport& transport, const SessionSetup& setup, ServerConfig config,
                                                   world::PlatformClock& clock, TraceSink* trace) {
  SORTIE_TRY(const std::vector<Message> messages, setup_messages(setup));
  std::unique_ptr<Server> s(new Server(transport, config, clock, trace));
  s->watcher_ = Watcher(setup.authority);
  s->next_player_ = static_cast<PlayerNumber>(setup.authority == 0xffff ? 1 : setup.authority + 1);
  Welcome w;
  w.authority = setup.authority;
  w.step_us = setup.step_us;
  w.seed = setup.seed;
  w.session_id = config.session_id;
  w.setup_count = static_cast<std::uint32_t>(messages.size());
  SORTIE_TRY(s->replica_, Replica::create(w, &s->tracer_));
  for (const Message& m : messages) {
    SORTIE_CHECK(s->replica_->feed(m));
    SORTIE_TRY(core::Bytes frame, encode_message(m));
    s->setup_frames_.push_back(std::move(frame));
  }
  w.setup_hash = s->replica_->state_hash();
  s->welcome_ = w;
  s->tracer_.resnet("session_open",
                    fmt::format(
                        "session={} setup_messages={} setup_bytes={} hash={}", config.session_id, messages.size(),
                        [&] {
                          std::size_t n = 0;
                          for (const auto& f : s->setup_frames_) n += f.size();
                          return n;
                        }(),
                        core::hash_hex(w.setup_hash)));
  return s;
}

// ---------------------------------------------------------------- output

namespace {

// Packs frames into reliable packets of at most kMaxPacketBytes and hands each to `out`.
template <class Out>
class FramePacker {
 public:
  explicit FramePacker(Out out) : out_(std::move(out)) {}
  void add(const core::Bytes& frame) {
    if (writer_.size() + frame.size() > kMaxPacketBytes) flush();
    writer_.bytes(frame);
    ++frames_;
  }
  void flush() {
    if (writer_.size() == 0) return;
    out_(writer_.take(), frames_);
    writer_ = core::ByteWriter{};
    frames_ = 0;
  }

 private:
  Out out_;
  core::ByteWriter writer_;
  std::size_t frames_ = 0;
};

}  // namespace

void Server::send_packet(Peer& peer, Delivery delivery, const core::Bytes& packet, std::size_t messages) {
  if (!transport_.send(peer.info.peer, delivery, packet)) return;
  peer.info.bytes_out += packet.size();
  ++stats_.packets_out;
  stats_.bytes_out += packet.size();
  stats_.messages_out += messages;
}

void Server::send(Peer& peer, const Message& message) {
  auto bytes = encode_message(message);
  if (!bytes) {
    tracer_.resnet("encode_failed", fmt::format("peer={} code={}", peer.info.peer, bytes.error().code));
    return;
  }
  send_packet(peer, spec_of(id_of(message)).delivery, *bytes, 1);
}

void Server::send_history(Peer& peer) {
  if (peer.info.stage != PeerStage::setup && peer.info.stage != PeerStage::ready) return;
  const std::uint64_t live = tick_frames_.size();
  if (peer.sent_setup == setup_frames_.size() && peer.info.sent_ticks == live) return;
  const std::uint64_t now = clock_.now_us();
  std::uint64_t behind = 0;  // bytes of history older than the newest tick
  FramePacker packer(
      [&](const core::Bytes& packet, std::size_t n) { send_packet(peer, Delivery::reliable_ordered, packet, n); });
  // The bucket may go below zero by one step: a sequence larger than the burst still goes out.
  auto afford = [&](std::size_t bytes) {
    if (!peer.catch_up.take(0.0, now) || peer.catch_up.tokens <= 0.0) return false;
    peer.catch_up.tokens -= static_cast<double>(bytes);
    return true;
  };
  while (peer.sent_setup < setup_frames_.size()) {
    const core::Bytes& f = setup_frames_[peer.sent_setup];
    if (!afford(f.size())) break;
    packer.add(f);
    behind += f.size();
    ++peer.sent_setup;
  }
  if (peer.sent_setup == setup_frames_.size()) {
    const std::uint64_t window_end = peer.info.acked_tick + config_.catch_up_window_ticks;
    while (peer.info.sent_ticks < live && peer.info.sent_ticks < window_end) {
      const std::vector<core::Bytes>& tick = tick_frames_[peer.info.sent_ticks];
      std::size_t bytes = 0;
      for (const core::Bytes& f : tick) bytes += f.size();
      if (!afford(bytes)) break;
      for (const core::Bytes& f : tick) packer.add(f);
      if (peer.info.sent_ticks + 1 < live) behind += bytes;
      ++peer.info.sent_ticks;
    }
  }
  packer.flush();
  stats_.catch_up_bytes += behind;
}

core::Bytes Server::message_log() const {
  return write_message_log(welcome_, setup_frames_, tick_frames_);
}

// ---------------------------------------------------------------- the tick

core::Status Server::run_tick() {
  const auto started = std::chrono::steady_clock::now();
  const std::uint64_t tick = replica_->ticks();
  std::vector<Message> sequence = std::move(next_);
  next_.clear();
  pending_spawns_.clear();
  for (Message& m : sequence) {
    std::visit(
        [tick](auto& msg) {
          if constexpr (requires { msg.tick; }) msg.tick = tick;
        },
        m);
  }
  SORTIE_TRY(const std::uint64_t hash, replica_->run_tick(sequence));
  std::vector<core::Bytes> frames;
  frames.reserve(sequence.size() + 1);
  for (const Message& m : sequence) {
    SORTIE_TRY(core::Bytes f, encode_message(m));
    frames.push_back(std::move(f));
  }
  SORTIE_TRY(core::Bytes end, encode_message(EndMessageSeq{tick, static_cast<std::uint16_t>(sequence.size()), hash}));
  frames.push_back(std::move(end));
  tick_frames_.push_back(std::move(frames));
  for (auto& [id, peer] : peers_) send_history(peer);  // the new tick, to every peer that has the ones before
  watcher_.settle();
  if (config_.sync_interval != 0 && replica_->ticks() % config_.sync_interval == 0) send_sync();
  transport_.flush();
  stats_.tick_times.add(static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count()));
  return {};
}

void Server::send_sync() {
  const SyncView view = quantize_world(replica_->world());
  const std::uint64_t tick = replica_->ticks();
  for (auto& [id, peer] : peers_) {
    if (peer.info.stage != PeerStage::ready) continue;
    SyncState m = peer.sync.build(tick, view);
    if (m.entries.empty()) continue;
    auto bytes = encode_message(m);
    if (!bytes) continue;
    send_packet(peer, Delivery::unreliable_sequenced, *bytes, 1);
    ++stats_.sync_messages;
    stats_.sync_bytes += bytes->size();
  }
}

// ---------------------------------------------------------------- host operations

core::Status Server::submit(const world::Command& command) {
  const world::CommandKindInfo* kind = replica_->world().commands().find(command.kind);
  if (kind == nullptr) {
    return fail(Diagnostic::error("world.command.kind_unknown", "no command kind with this wire id is registered")
                    .expect(replica_->world().commands().describe(), std::to_string(command.kind)));
  }
  if (command.payload.size() > kMaxCommandPayloadBytes) {
    return fail(
        Diagnostic::error("net.encode.oversize", "command payload beyond the protocol's limit")
            .expect(fmt::format("<= {} bytes", kMaxCommandPayloadBytes), std::to_string(command.payload.size())));
  }
  core::ByteReader r(command.payload, "command payload");
  r.set_code_prefix("world.command.payload");
  SORTIE_CHECK(kind->check(r));
  SORTIE_CHECK(r.require_end("command payload"));
  if (kind->validate) SORTIE_CHECK(kind->validate(replica_->world(), command.payload));
  next_.emplace_back(TickCommand{0, command.kind, command.payload});
  return {};
}

void Server::pause(bool paused) {
  next_.emplace_back(PauseRemotePlayer{0, watcher_.authority(), paused});
}

core::Status Server::set_speed(std::uint32_t scale_permille) {
  if (scale_permille < 1 || scale_permille > 100'000) {
    return fail(Diagnostic::error("net.session.time_scale", "time scale must be 1..100000 per mille")
                    .expect("1..100000", std::to_string(scale_permille)));
  }
  next_.emplace_back(SetTime{0, scale_permille});
  return {};
}

core::Status Server::kick(PlayerNumber player, Reason reason) {
  auto peer_id = watcher_.peer_of(player);
  if (!peer_id) {
    return fail(Diagnostic::error("net.player.unknown", "no connected player with this number")
                    .expect("a joined player", std::to_string(player)));
  }
  drop(peers_.at(*peer_id), reason, "kicked by the host");
  return {};
}

void Server::finish() {
  for (auto& [id, peer] : peers_) {
    if (peer.info.stage == PeerStage::closing) continue;
    send(peer, Reject{Reason::session_end, "the session is over"});
    transport_.disconnect(id, static_cast<std::uint32_t>(Reason::session_end));
    peer.info.stage = PeerStage::closing;
    tracer_.resnet("disconnect", fmt::format("peer={} player={} reason=session_end", id, peer.info.player));
  }
  transport_.flush();
}

std::size_t Server::drop_behind(std::uint64_t tick) {
  std::size_t dropped = 0;
  for (auto& [id, peer] : peers_) {
    if (peer.info.stage == PeerStage::closing) continue;
    if (peer.info.stage == PeerStage::ready && peer.info.acked_tick >= tick) continue;
    drop(peer, Reason::ack_timeout,
         fmt::format("acknowledged {} of {} ticks when the session ended", peer.info.acked_tick, tick));
    ++dropped;
  }
  transport_.flush();
  return dropped;
}

bool Server::lost_since_last_tick() const {
  return std::any_of(departures_.begin(), departures_.end(), [&](const Departure& d) {
    return d.tick == replica_->ticks() && d.player != kNoPlayer && d.reason != Reason::left;
  });
}

bool Server::clients_caught_up(std::uint64_t tick) const {
  for (const auto& [id, peer] : peers_) {
    if (peer.info.stage == PeerStage::closing) continue;
    if (peer.info.stage != PeerStage::ready || peer.info.acked_tick < tick) return false;
  }
  return true;
}

std::vector<PeerInfo> Server::peers() const {
  std::vector<PeerInfo> out;
  for (const auto& [id, peer] : peers_) out.push_back(peer.info);
  return out;
}

}  // namespace sortie::net
