// The server's input: transport events, the messages of each peer state, the order policy,
// flood limits, timeouts and disconnection. Nothing here changes the world; decisions go to the
// next tick's sequence (next_).
#include <fmt/format.h>

#include <algorithm>

#include "sortie/core/hash.hpp"
#include "sortie/net/class_ids.hpp"
#include "sortie/net/codec.hpp"
#include "sortie/net/net_commands.hpp"
#include "sortie/net/server.hpp"
#include "sortie/world/command_registry.hpp"

namespace sortie::net {

using core::Diagnostic;

namespace {

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameBytes) return false;
  return std::none_of(name.begin(), name.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f || c == ' ' || c == '=';
  });
}

std::string clip(std::string text, std::size_t n) {
  if (text.size() > n) text.resize(n);
  return text;
}

}  // namespace

core::Status Server::poll(std::uint32_t wait_ms) {
  std::vector<TransportEvent> events;
  SORTIE_CHECK(transport_.poll(wait_ms, events));
  for (TransportEvent& e : events) {
    switch (e.type) {
      case TransportEvent::Type::connected:
        on_connected(e.peer);
        break;
      case TransportEvent::Type::disconnected:
        on_disconnected(e.peer, e.reason);
        break;
      case TransportEvent::Type::received:
        on_packet(e.peer, e.delivery, e.data);
        break;
    }
  }
  check_timeouts();
  for (auto& [id, peer] : peers_) send_history(peer);
  transport_.flush();
  return {};
}

void Server::on_connected(PeerId id) {
  Peer peer;
  peer.info.peer = id;
  peer.info.address = transport_.describe(id);
  const std::uint64_t now = clock_.now_us();
  peer.since_us = now;
  peer.messages =
      Bucket{static_cast<double>(config_.flood_message_burst), static_cast<double>(config_.flood_message_burst),
             static_cast<double>(config_.flood_messages_per_s), now};
  peer.bytes = Bucket{static_cast<double>(config_.flood_byte_burst), static_cast<double>(config_.flood_byte_burst),
                      static_cast<double>(config_.flood_bytes_per_s), now};
  peer.catch_up =
      Bucket{static_cast<double>(config_.catch_up_byte_burst), static_cast<double>(config_.catch_up_byte_burst),
             static_cast<double>(config_.catch_up_bytes_per_s), now};
  peer.sync = SyncSender(config_.sync);
  tracer_.resnet("connect", fmt::format("peer={} address={}", id, peer.info.address));
  peers_[id] = std::move(peer);
}

void Server::on_disconnected(PeerId id, std::uint32_t reason) {
  auto it = peers_.find(id);
  if (it == peers_.end()) return;
  Peer& peer = it->second;
  if (peer.info.stage != PeerStage::closing) {
    // A peer that says why it goes sends a reason (a sortie client: left, or its error); a
    // connection the transport lost (ENet's timeout: a crashed or cut-off peer) carries none.
    const auto r = reason > 0xff ? std::nullopt : reason_from(static_cast<std::uint8_t>(reason));
    const Reason why = (!r || *r == Reason::none) ? Reason::transport_lost : *r;
    tracer_.resnet("disconnected", fmt::format("peer={} player={} reason={}", id, peer.info.player, to_string(why)));
    leave(peer, why, "the peer disconnected");
  } else {
    tracer_.resnet("closed", fmt::format("peer={} player={}", id, peer.info.player));
  }
  peers_.erase(it);
}

void Server::on_packet(PeerId id, Delivery delivery, const core::Bytes& packet) {
  auto it = peers_.find(id);
  if (it == peers_.end()) return;
  Peer& peer = it->second;
  if (peer.info.stage == PeerStage::closing) return;
  const std::uint64_t now = clock_.now_us();
  ++peer.info.packets_in;
  peer.info.bytes_in += packet.size();
  ++stats_.packets_in;
  stats_.bytes_in += packet.size();
  if (!peer.bytes.take(static_cast<double>(packet.size()), now)) {
    drop(peer, Reason::flood, fmt::format("more than {} bytes/s", config_.flood_bytes_per_s));
    return;
  }
  auto messages = decode_packet(packet, delivery);
  if (!messages) {
    const Diagnostic& d = messages.error();
    drop(peer, reason_for(d), fmt::format("{}: {}", d.code, d.to_string()));
    return;
  }
  for (const Message& m : *messages) {
    if (peer.info.stage == PeerStage::closing) return;
    ++peer.info.messages_in;
    ++stats_.messages_in;
    if (!peer.messages.take(1.0, now)) {
      drop(peer, Reason::flood, fmt::format("more than {} messages/s", config_.flood_messages_per_s));
      return;
    }
    on_message(peer, m);
  }
}

void Server::on_message(Peer& peer, const Message& message) {
  const MessageSpec& spec = spec_of(id_of(message));
  if (spec.direction != Direction::client_to_server && spec.direction != Direction::both) {
    drop(peer, Reason::unexpected_message, fmt::format("{} is a server message", spec.name));
    return;
  }
  if (peer.info.stage == PeerStage::hello) {
    if (const auto* hello = std::get_if<Hello>(&message)) {
      on_hello(peer, *hello);
    } else {
      drop(peer, Reason::unexpected_message, fmt::format("{} before NET_HELLO", spec.name));
    }
    return;
  }
  const PlayerNumber me = peer.info.player;
  const std::uint64_t now = clock_.now_us();
  if (const auto* ack = std::get_if<Ack>(&message)) {
    if (ack->tick > peer.info.sent_ticks || ack->sync_tick > replica_->ticks()) {
      drop(peer, Reason::unexpected_message,
           fmt::format("acknowledges tick {} of {} sent ({} run)", std::max(ack->tick, ack->sync_tick),
                       peer.info.sent_ticks, replica_->ticks()));
      return;
    }
    if (peer.info.stage == PeerStage::setup) {
      peer.info.stage = PeerStage::ready;
      tracer_.resnet("ready",
                     fmt::format("peer={} player={} setup_ms={}", peer.info.peer, me, (now - peer.since_us) / 1000));
    }
    peer.last_ack_us = now;
    peer.info.acked_tick = std::max(peer.info.acked_tick, ack->tick);
    if (ack->sync_tick != 0) peer.sync.acknowledge(ack->sync_tick);
  } else if (const auto* order = std::get_if<Order>(&message)) {
    on_order(peer, *order);
  } else if (const auto* take = std::get_if<TakeObject>(&message)) {
    on_take(peer, *take);
  } else if (const auto* pause = std::get_if<PauseRemotePlayer>(&message)) {
    if (pause->player != me || pause->tick != 0) {
      drop(peer, Reason::unexpected_message, "pause request for another player or with a tick");
      return;
    }
    if (!config_.allow_pause_requests) {
      tracer_.netwatch("pause_rejected", fmt::format("player={}", me));
      return;
    }
    next_.emplace_back(PauseRemotePlayer{0, me, pause->paused});
    tracer_.netwatch("pause_request", fmt::format("player={} paused={}", me, pause->paused ? 1 : 0));
  } else if (const auto* text = std::get_if<TextForPlayer>(&message)) {
    if (text->from != me) {
      drop(peer, Reason::unexpected_message, "text sent in another player's name");
      return;
    }
    texts_.push_back(*text);
    for (auto& [id, other] : peers_) {
      if (id == peer.info.peer || other.info.player == 0 || other.info.stage == PeerStage::closing) continue;
      if (text->to == 0 || text->to == other.info.player) send(other, *text);
    }
  } else if (const auto* data = std::get_if<SetPlayerData>(&message)) {
    if (data->player != me) {
      drop(peer, Reason::unexpected_message, "player data for another player");
      return;
    }
    replica_->set_player_data(me, data->data);
    send(peer, ConfirmPlayerData{me, 0, core::hash64(data->data)});
    for (auto& [id, other] : peers_) {
      if (id != peer.info.peer && other.info.player != 0 && other.info.stage != PeerStage::closing) send(other, *data);
    }
  } else if (const auto* removed = std::get_if<RemoveResource>(&message)) {
    drop(peer, Reason::resource_timeout,
         fmt::format("the client dropped resource {} ({})", removed->resource, to_string(removed->reason)));
  } else {
    drop(peer, Reason::unexpected_message, fmt::format("{} after the handshake", spec.name));
  }
}

void Server::on_hello(Peer& peer, const Hello& hello) {
  auto refuse = [&](Reason reason, std::string text) { drop(peer, reason, std::move(text)); };
  if (hello.guid != kApplicationGuid) {
    refuse(Reason::guid_mismatch, "another application GUID");
    return;
  }
  if (hello.version != kProtocolVersion) {
    refuse(Reason::version_mismatch, fmt::format("the server speaks version {}", kProtocolVersion));
    return;
  }
  if (!valid_name(hello.name)) {
    refuse(Reason::name_invalid, "a name is 1..32 bytes without control characters, spaces or '='");
    return;
  }
  std::size_t players = 0;
  for (const auto& [id, other] : peers_) {
    if (other.info.player == 0 || other.info.stage == PeerStage::closing) continue;
    ++players;
    if (other.info.name == hello.name) {
      refuse(Reason::name_invalid, "the name is taken");
      return;
    }
  }
  if (hello.name == replica_->players().at(watcher_.authority()).name) {
    refuse(Reason::name_invalid, "the name is taken");
    return;
  }
  if (players >= config_.max_players || next_player_ == 0) {
    refuse(Reason::session_full, fmt::format("{} players at most", config_.max_players));
    return;
  }
  const PlayerNumber player = next_player_;
  next_player_ = static_cast<PlayerNumber>(next_player_ == 0xffff ? 0 : next_player_ + 1);  // never reused
  peer.info.player = player;
  peer.info.name = hello.name;
  peer.info.stage = PeerStage::setup;
  peer.since_us = clock_.now_us();
  peer.last_ack_us = peer.since_us;
  watcher_.bind(peer.info.peer, player);
  Welcome w = welcome_;
  w.live_tick = replica_->ticks();
  send(peer, w);
  send(peer, SetPlayerNumber{player});
  std::size_t catch_up = 0;
  for (const auto& tick : tick_frames_) catch_up += tick.size();
  send_history(peer);  // the first chunk; the rest as the peer acknowledges (ServerConfig::catch_up_*)
  next_.emplace_back(CreateRemotePlayer{0, player, 0, hello.name, {}});
  tracer_.resnet("accept", fmt::format("peer={} player={} name={} catch_up_ticks={} catch_up_messages={}",
                                       peer.info.peer, player, hello.name, tick_frames_.size(), catch_up));
  tracer_.netwatch("player_bind", fmt::format("peer={} player={} name={}", peer.info.peer, player, hello.name));
}

std::size_t Server::objects_of(PlayerNumber player) const {
  const auto spawns = pending_spawns_.find(player);
  return watcher_.routed_to(replica_->world(), player).size() + (spawns == pending_spawns_.end() ? 0 : spawns->second);
}

void Server::on_order(Peer& peer, const Order& order) {
  const PlayerNumber me = peer.info.player;
  auto reject = [&](std::string_view why, std::string_view detail = {}) {
    ++stats_.orders_rejected;
    tracer_.netwatch("order_rejected", fmt::format("player={} kind={} why={}{}{}", me, order.kind, why,
                                                   detail.empty() ? "" : " detail=", detail));
  };
  const world::World& w = replica_->world();
  const world::CommandKindInfo* kind = w.commands().find(order.kind);
  if (kind == nullptr) {
    reject("kind_unknown");
    return;
  }
  // The payload must decode with its kind's codec: anything else is garbage from the peer.
  core::ByteReader r(order.payload, "order payload");
  r.set_code_prefix("world.command.payload");
  if (auto st = kind->check(r); !st || !r.require_end("order payload")) {
    drop(peer, Reason::malformed, fmt::format("order payload of kind {} does not decode", kind->name));
    return;
  }
  // A player order names its target (the kind's order_target hook); the target must be routed
  // to the player.
  if (kind->order_target) {
    auto target = kind->order_target(order.payload);
    if (!target) {
      drop(peer, Reason::malformed, fmt::format("order payload of kind {} does not decode", kind->name));
      return;
    }
    const auto owner = watcher_.route(w, *target);
    if (owner != me) {
      reject("not_owner", target->to_string());
      return;
    }
  } else if (order.kind == SpawnForCommand::kWireId) {
    auto spawn = world::decode_payload<SpawnForCommand>(order.payload);
    if (!spawn) {
      drop(peer, Reason::malformed, "net.spawn_for payload does not decode");
      return;
    }
    const auto& protos = replica_->prototypes();
    if (spawn->owner != me || spawn->class_id != net::class_ids::kNetUnit ||
        !std::binary_search(protos.begin(), protos.end(), spawn->prototype)) {
      reject("spawn_not_allowed", spawn->prototype);
      return;
    }
    if (objects_of(me) >= config_.max_objects_per_player) {
      reject("object_limit");
      return;
    }
    ++pending_spawns_[me];
  } else {
    reject("kind_not_allowed", kind->name);
    return;
  }
  if (kind->validate) {
    if (auto st = kind->validate(w, order.payload); !st) {
      reject("invalid", st.error().code);
      return;
    }
  }
  ++stats_.orders_accepted;
  if (world::Trace* t = world::traced(w, "input"))
    t->write("input", fmt::format("network order of player {}: {}{} for tick {}", me, kind->name,
                                  kind->order_target ? " " + kind->order_target(order.payload)->to_string() : "",
                                  replica_->ticks()));
  next_.emplace_back(TickCommand{0, order.kind, order.payload});
}

void Server::on_take(Peer& peer, const TakeObject& take) {
  const PlayerNumber me = peer.info.player;
  const auto owner = watcher_.route(replica_->world(), take.object);
  if (!owner || *owner != watcher_.authority() || objects_of(me) >= config_.max_objects_per_player) {
    ++stats_.orders_rejected;
    tracer_.netwatch("take_rejected", fmt::format("player={} id={} owner={}", me, take.object.to_string(),
                                                  owner ? std::to_string(*owner) : "none"));
    return;
  }
  watcher_.reroute(take.object, me);  // routing changes now; the world at the start of the next tick
  next_.emplace_back(ChangeObjectOwner{0, take.object, me});
  tracer_.netwatch("take", fmt::format("player={} id={}", me, take.object.to_string()));
}

void Server::check_timeouts() {
  const std::uint64_t now = clock_.now_us();
  for (auto& [id, peer] : peers_) {
    switch (peer.info.stage) {
      case PeerStage::hello:
        if (now - peer.since_us > config_.handshake_timeout_us) {
          drop(peer, Reason::handshake_timeout,
               fmt::format("no NET_HELLO within {} ms", config_.handshake_timeout_us / 1000));
        }
        break;
      case PeerStage::setup:
        if (now - peer.since_us > config_.resource_max_delay_us) {
          drop(peer, Reason::resource_timeout,
               fmt::format("setup not confirmed within Network_ResourceTransferMaxDelay ({} ms)",
                           config_.resource_max_delay_us / 1000));
        }
        break;
      case PeerStage::ready:
        if (now - peer.last_ack_us > config_.ack_timeout_us) {
          drop(peer, Reason::ack_timeout, fmt::format("no NET_ACK for {} ms", config_.ack_timeout_us / 1000));
        }
        break;
      case PeerStage::closing:
        break;
    }
  }
}

void Server::drop(Peer& peer, Reason reason, std::string detail) {
  if (peer.info.stage == PeerStage::closing) return;
  tracer_.resnet("disconnect", fmt::format("peer={} player={} reason={} detail=\"{}\"", peer.info.peer,
                                           peer.info.player, to_string(reason), detail));
  send(peer, Reject{reason, clip(detail, kMaxRejectTextBytes)});
  transport_.disconnect(peer.info.peer, static_cast<std::uint32_t>(reason));
  leave(peer, reason, std::move(detail));
  peer.info.stage = PeerStage::closing;
}

void Server::leave(Peer& peer, Reason reason, std::string detail) {
  Departure d;
  d.peer = peer.info.peer;
  d.player = peer.info.player;
  d.reason = reason;
  d.detail = std::move(detail);
  d.tick = replica_->ticks();
  if (peer.info.player != 0 && peer.info.stage != PeerStage::closing) {
    const PlayerNumber player = peer.info.player;
    const std::vector<world::ObjectId> owned = watcher_.routed_to(replica_->world(), player);
    const PlayerNumber heir = config_.leave_policy == OwnedObjectPolicy::transfer ? watcher_.authority() : kNoPlayer;
    for (const world::ObjectId& id : owned) watcher_.reroute(id, heir);
    next_.emplace_back(KillPlayer{0, player, reason, config_.leave_policy});
    d.objects = owned.size();
    watcher_.unbind(peer.info.peer);
    tracer_.netwatch("player_unbind",
                     fmt::format("peer={} player={} reason={} objects={} policy={}", peer.info.peer, player,
                                 to_string(reason), owned.size(), to_string(config_.leave_policy)));
  }
  departures_.push_back(std::move(d));
}

}  // namespace sortie::net
