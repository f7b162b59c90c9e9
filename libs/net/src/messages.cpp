#include "sortie/net/messages.hpp"

#include <fmt/format.h>

#include <bit>

#include "sortie/net/wire.hpp"

namespace sortie::net {

using core::fail;
using core::Result;

namespace {

core::Diagnostic bad(core::ByteReader& in, std::size_t at, std::string code, std::string what, std::string expected,
                     std::string found) {
  return in.error_at(at, "net.message." + std::move(code), std::move(what))
      .expect(std::move(expected), std::move(found));
}

Result<Reason> get_reason(core::ByteReader& in) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t v, in.u8());
  auto r = reason_from(v);
  if (!r) return fail(bad(in, at, "reason", "unknown reason code", "0..17", std::to_string(v)));
  return *r;
}

Result<std::uint64_t> get_tick(core::ByteReader& in) {
  return in.u64();
}

}  // namespace

// ---------------------------------------------------------------- CREATE_REMOTE_PLAYER

void CreateRemotePlayer::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u16(player);
  out.u8(flags);
  wire::put_str8(out, name);
  wire::put_blob16(out, data);
}
Result<CreateRemotePlayer> CreateRemotePlayer::read(core::ByteReader& in) {
  CreateRemotePlayer m;
  SORTIE_TRY(m.tick, get_tick(in));
  SORTIE_TRY(m.player, wire::get_player(in, true));
  const std::size_t at = in.offset();
  SORTIE_TRY(m.flags, in.u8());
  if ((m.flags & ~kHost) != 0)
    return fail(bad(in, at, "flags", "unknown player flags", "bit 0 only", std::to_string(m.flags)));
  SORTIE_TRY(m.name, wire::get_str8(in, kMaxNameBytes, "player name", true));
  SORTIE_TRY(m.data, wire::get_blob16(in, kMaxPlayerDataBytes, "player data"));
  return m;
}

// ---------------------------------------------------------------- APPEND_RESOURCE

void AppendResource::write(core::ByteWriter& out) const {
  out.u32(resource);
  out.u8(static_cast<std::uint8_t>(kind));
  wire::put_str8(out, name);
  out.u32(total);
  out.u64(content_hash);
  out.u32(offset);
  wire::put_blob16(out, chunk);
}
Result<AppendResource> AppendResource::read(core::ByteReader& in) {
  AppendResource m;
  SORTIE_TRY(m.resource, in.u32());
  std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t kind, in.u8());
  if (kind < 1 || kind > 4)
    return fail(bad(in, at, "resource_kind", "unknown resource kind", "1..4", std::to_string(kind)));
  m.kind = static_cast<ResourceKind>(kind);
  SORTIE_TRY(m.name, wire::get_str8(in, kMaxResourceNameBytes, "resource name", true));
  at = in.offset();
  SORTIE_TRY(m.total, in.u32());
  if (m.total > kMaxResourceBytes) {
    return fail(in.error_at(at, "net.message.too_long", "resource is larger than allowed")
                    .expect(fmt::format("<= {} bytes", kMaxResourceBytes), std::to_string(m.total)));
  }
  SORTIE_TRY(m.content_hash, in.u64());
  at = in.offset();
  SORTIE_TRY(m.offset, in.u32());
  SORTIE_TRY(m.chunk, wire::get_blob16(in, kMaxResourceChunkBytes, "resource chunk"));
  if (std::uint64_t{m.offset} + m.chunk.size() > m.total) {
    return fail(bad(in, at, "resource_range", "chunk runs past the resource's total size",
                    fmt::format("offset + size <= {}", m.total), fmt::format("{} + {}", m.offset, m.chunk.size())));
  }
  if (m.chunk.empty() && m.total != 0) {
    return fail(bad(in, at, "resource_range", "empty chunk of a non-empty resource", ">= 1 byte", "0"));
  }
  return m;
}

// ---------------------------------------------------------------- CHANGE_OBJECT_OWNER

void ChangeObjectOwner::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u64(object.raw());
  out.u16(owner);
}
Result<ChangeObjectOwner> ChangeObjectOwner::read(core::ByteReader& in) {
  ChangeObjectOwner m;
  SORTIE_TRY(m.tick, get_tick(in));
  SORTIE_TRY(m.object, wire::get_object_id(in, true));
  SORTIE_TRY(m.owner, wire::get_player(in, true));
  return m;
}

// ---------------------------------------------------------------- SET_PLAYER_DATA

void SetPlayerData::write(core::ByteWriter& out) const {
  out.u16(player);
  wire::put_blob16(out, data);
}
Result<SetPlayerData> SetPlayerData::read(core::ByteReader& in) {
  SetPlayerData m;
  SORTIE_TRY(m.player, wire::get_player(in, false));
  SORTIE_TRY(m.data, wire::get_blob16(in, kMaxPlayerDataBytes, "player data"));
  return m;
}

// ---------------------------------------------------------------- MISSION_DATA_PATH

void MissionDataPath::write(core::ByteWriter& out) const {
  wire::put_str16(out, path);
}
Result<MissionDataPath> MissionDataPath::read(core::ByteReader& in) {
  MissionDataPath m;
  SORTIE_TRY(m.path, wire::get_str16(in, kMaxPathBytes, "mission data path"));
  return m;
}

// ---------------------------------------------------------------- TAKE_OBJECT

void TakeObject::write(core::ByteWriter& out) const {
  out.u64(object.raw());
}
Result<TakeObject> TakeObject::read(core::ByteReader& in) {
  TakeObject m;
  SORTIE_TRY(m.object, wire::get_object_id(in, true));
  return m;
}

// ---------------------------------------------------------------- TEXT_FOR_PLAYER

void TextForPlayer::write(core::ByteWriter& out) const {
  out.u16(from);
  out.u16(to);
  wire::put_str16(out, text);
}
Result<TextForPlayer> TextForPlayer::read(core::ByteReader& in) {
  TextForPlayer m;
  SORTIE_TRY(m.from, wire::get_player(in, false));
  SORTIE_TRY(m.to, wire::get_player(in, false));
  SORTIE_TRY(m.text, wire::get_str16(in, kMaxTextBytes, "text"));
  return m;
}

// ---------------------------------------------------------------- SYNC_STATE

void SyncState::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u16(static_cast<std::uint16_t>(entries.size()));
  std::uint64_t prev = 0;
  for (const SyncEntry& e : entries) {
    wire::put_varint(out, e.id.raw() - prev);
    prev = e.id.raw();
    wire::put_varint(out, e.age);
    wire::put_varint(out, e.mask);
    for (std::size_t f = 0; f < SyncEntry::kFields; ++f) {
      if ((e.mask & (1u << f)) != 0) wire::put_varint(out, wire::zigzag(e.delta[f]));
    }
    if ((e.mask & SyncEntry::kOwner) != 0) wire::put_varint(out, e.owner);
    if ((e.mask & SyncEntry::kFlags) != 0) out.u8(e.flags);
  }
}
Result<SyncState> SyncState::read(core::ByteReader& in) {
  SyncState m;
  std::size_t at = in.offset();
  SORTIE_TRY(m.tick, get_tick(in));
  if (m.tick == 0) return fail(bad(in, at, "sync_tick", "sync state of tick 0", ">= 1", "0"));
  SORTIE_TRY(const std::uint16_t count, in.u16());
  // Every entry takes at least three bytes (id, age, mask): bound the count before allocating.
  SORTIE_CHECK(in.check_count(count, 3, "sync entries"));
  m.entries.reserve(count);
  std::uint64_t prev = 0;
  for (std::uint16_t i = 0; i < count; ++i) {
    SyncEntry e;
    at = in.offset();
    SORTIE_TRY(const std::uint64_t step, wire::get_varint(in));
    if (step == 0 || step > ~prev) {
      return fail(bad(in, at, "sync_order", "sync entries must name nonzero ids in ascending order",
                      "a step > 0 within 64 bits", std::to_string(step)));
    }
    prev += step;
    e.id = world::ObjectId::from_raw(prev);
    at = in.offset();
    SORTIE_TRY(e.age, wire::get_varint(in));
    if (e.age != 0 && e.age >= m.tick) {
      return fail(
          bad(in, at, "sync_age", "baseline before tick 1", fmt::format("0 or < {}", m.tick), std::to_string(e.age)));
    }
    at = in.offset();
    SORTIE_TRY(const std::uint64_t mask, wire::get_varint(in));
    const bool removed = (mask & SyncEntry::kRemoved) != 0;
    if (mask == 0 || mask > 0x1ff || (removed && (mask != SyncEntry::kRemoved || e.age != 0))) {
      return fail(bad(in, at, "sync_mask", "sync entry mask is empty, unknown or mixes removal with fields",
                      "1..255, or 256 alone with age 0", std::to_string(mask)));
    }
    e.mask = static_cast<std::uint16_t>(mask);
    for (std::size_t f = 0; f < SyncEntry::kFields; ++f) {
      if ((e.mask & (1u << f)) == 0) continue;
      at = in.offset();
      SORTIE_TRY(const std::uint64_t z, wire::get_varint(in));
      const std::int64_t d = wire::unzigzag(z);
      if (d > SyncEntry::kMaxDelta || d < -SyncEntry::kMaxDelta) {
        return fail(bad(in, at, "sync_delta", "sync delta beyond the difference of two i32",
                        fmt::format("|delta| <= {}", SyncEntry::kMaxDelta), std::to_string(d)));
      }
      e.delta[f] = d;
    }
    if ((e.mask & SyncEntry::kOwner) != 0) {
      at = in.offset();
      SORTIE_TRY(const std::uint64_t owner, wire::get_varint(in));
      if (owner > 0xffff) return fail(bad(in, at, "player", "owner beyond 16 bits", "<= 65535", std::to_string(owner)));
      e.owner = static_cast<PlayerNumber>(owner);
    }
    if ((e.mask & SyncEntry::kFlags) != 0) {
      at = in.offset();
      SORTIE_TRY(e.flags, in.u8());
      if (e.flags > 3) return fail(bad(in, at, "flags", "unknown object flags", "bits 0..1", std::to_string(e.flags)));
    }
    m.entries.push_back(e);
  }
  return m;
}

// ---------------------------------------------------------------- CREATE_MIRROR

void CreateMirror::write(core::ByteWriter& out) const {
  out.u64(id.raw());
  out.u16(owner);
  out.u8(flags);
  wire::put_str8(out, prototype);
  wire::put_transform(out, transform);
  out.u8(static_cast<std::uint8_t>(properties.size()));
  for (const auto& [key, value] : properties.items()) {
    wire::put_str8(out, key);
    out.u8(static_cast<std::uint8_t>(value.index()));
    if (const auto* i = std::get_if<std::int64_t>(&value)) {
      out.u64(static_cast<std::uint64_t>(*i));
    } else if (const auto* d = std::get_if<double>(&value)) {
      out.u64(std::bit_cast<std::uint64_t>(*d));
    } else {
      wire::put_str8(out, std::get<std::string>(value));
    }
  }
  out.u16(static_cast<std::uint16_t>(raw_properties.size()));
  for (const world::RawProperty& r : raw_properties.items()) {
    wire::put_str8(out, r.name);
    wire::put_str8(out, r.name_bytes);
    for (const std::uint32_t word : r.words) out.u32(word);
  }
}

namespace {

// The raw property records of a CREATE_MIRROR, in order; repeated names are kept.
Result<world::RawProperties> read_raw_properties(core::ByteReader& in) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint16_t count, in.u16());
  if (count > kMaxMirrorRawProperties) {
    return fail(in.error_at(at, "net.message.too_long", "too many raw properties")
                    .expect(fmt::format("<= {}", kMaxMirrorRawProperties), std::to_string(count)));
  }
  world::RawProperties out;
  for (std::uint16_t i = 0; i < count; ++i) {
    world::RawProperty r;
    SORTIE_TRY(r.name, wire::get_str8(in, kMaxRawPropertyNameBytes, "raw property name", false));
    SORTIE_TRY(r.name_bytes, wire::get_str8(in, kMaxRawPropertyNameBytes, "raw property name bytes", false));
    for (std::uint32_t& word : r.words) {
      SORTIE_TRY(word, in.u32());
    }
    out.add(std::move(r));
  }
  return out;
}

}  // namespace

Result<CreateMirror> CreateMirror::read(core::ByteReader& in) {
  CreateMirror m;
  SORTIE_TRY(m.id, wire::get_object_id(in, true));
  SORTIE_TRY(m.owner, wire::get_player(in, true));
  std::size_t at = in.offset();
  SORTIE_TRY(m.flags, in.u8());
  if (m.flags > 3) return fail(bad(in, at, "flags", "unknown object flags", "bits 0..1", std::to_string(m.flags)));
  SORTIE_TRY(m.prototype, wire::get_str8(in, kMaxPrototypeBytes, "prototype key", true));
  SORTIE_TRY(m.transform, wire::get_transform(in));
  at = in.offset();
  SORTIE_TRY(const std::uint8_t count, in.u8());
  if (count > kMaxMirrorProperties) {
    return fail(in.error_at(at, "net.message.too_long", "too many properties")
                    .expect(fmt::format("<= {}", kMaxMirrorProperties), std::to_string(count)));
  }
  for (std::uint8_t i = 0; i < count; ++i) {
    at = in.offset();
    SORTIE_TRY(std::string key, wire::get_str8(in, kMaxPropertyKeyBytes, "property key", true));
    if (m.properties.find(key) != nullptr) {
      return fail(bad(in, at, "property_duplicate", "property key appears twice", "unique keys", key));
    }
    at = in.offset();
    SORTIE_TRY(const std::uint8_t tag, in.u8());
    if (tag == 0) {
      SORTIE_TRY(const std::uint64_t v, in.u64());
      m.properties.set(key, static_cast<std::int64_t>(v));
    } else if (tag == 1) {
      SORTIE_TRY(const std::uint64_t v, in.u64());
      m.properties.set(key, std::bit_cast<double>(v));
    } else if (tag == 2) {
      SORTIE_TRY(std::string s, wire::get_str8(in, kMaxPropertyStringBytes, "property string", false));
      m.properties.set(key, std::move(s));
    } else {
      return fail(
          bad(in, at, "property_tag", "unknown property tag", "0 int, 1 double, 2 string", std::to_string(tag)));
    }
  }
  SORTIE_TRY(m.raw_properties, read_raw_properties(in));
  return m;
}

bool operator==(const CreateMirror& a, const CreateMirror& b) {
  if (a.id != b.id || a.owner != b.owner || a.flags != b.flags || a.prototype != b.prototype) return false;
  if (!core::same_bits(a.transform, b.transform)) return false;
  const auto& x = a.properties.items();
  const auto& y = b.properties.items();
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].first != y[i].first || x[i].second.index() != y[i].second.index()) return false;
    if (const auto* d = std::get_if<double>(&x[i].second)) {
      if (std::bit_cast<std::uint64_t>(*d) != std::bit_cast<std::uint64_t>(std::get<double>(y[i].second))) return false;
    } else if (x[i].second != y[i].second) {
      return false;
    }
  }
  return a.raw_properties == b.raw_properties;
}

// ---------------------------------------------------------------- PAUSE_REMOTE_PLAYER

void PauseRemotePlayer::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u16(player);
  out.u8(paused ? 1 : 0);
}
Result<PauseRemotePlayer> PauseRemotePlayer::read(core::ByteReader& in) {
  PauseRemotePlayer m;
  SORTIE_TRY(m.tick, get_tick(in));
  SORTIE_TRY(m.player, wire::get_player(in, false));
  SORTIE_TRY(m.paused, wire::get_bool(in, "paused"));
  return m;
}

// ---------------------------------------------------------------- CONFIRM_PLAYER_DATA

void ConfirmPlayerData::write(core::ByteWriter& out) const {
  out.u16(player);
  out.u8(status);
  out.u64(data_hash);
}
Result<ConfirmPlayerData> ConfirmPlayerData::read(core::ByteReader& in) {
  ConfirmPlayerData m;
  SORTIE_TRY(m.player, wire::get_player(in, false));
  const std::size_t at = in.offset();
  SORTIE_TRY(m.status, in.u8());
  if (m.status > 1) return fail(bad(in, at, "status", "unknown confirmation status", "0|1", std::to_string(m.status)));
  SORTIE_TRY(m.data_hash, in.u64());
  return m;
}

// ---------------------------------------------------------------- KILL_PLAYER

void KillPlayer::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u16(player);
  out.u8(static_cast<std::uint8_t>(reason));
  out.u8(static_cast<std::uint8_t>(policy));
}
Result<KillPlayer> KillPlayer::read(core::ByteReader& in) {
  KillPlayer m;
  SORTIE_TRY(m.tick, get_tick(in));
  SORTIE_TRY(m.player, wire::get_player(in, true));
  SORTIE_TRY(m.reason, get_reason(in));
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t policy, in.u8());
  if (policy > 1)
    return fail(bad(in, at, "policy", "unknown owned-object policy", "0 transfer, 1 remove", std::to_string(policy)));
  m.policy = static_cast<OwnedObjectPolicy>(policy);
  return m;
}

// ---------------------------------------------------------------- SET_TIME

void SetTime::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u32(scale_permille);
}
Result<SetTime> SetTime::read(core::ByteReader& in) {
  SetTime m;
  SORTIE_TRY(m.tick, get_tick(in));
  const std::size_t at = in.offset();
  SORTIE_TRY(m.scale_permille, in.u32());
  if (m.scale_permille < 1 || m.scale_permille > 100'000) {
    return fail(
        bad(in, at, "time_scale", "time scale out of range", "1..100000 per mille", std::to_string(m.scale_permille)));
  }
  return m;
}

// ---------------------------------------------------------------- SET_PLAYER_NUMBER

void SetPlayerNumber::write(core::ByteWriter& out) const {
  out.u16(player);
}
Result<SetPlayerNumber> SetPlayerNumber::read(core::ByteReader& in) {
  SetPlayerNumber m;
  SORTIE_TRY(m.player, wire::get_player(in, false));
  return m;
}

// ---------------------------------------------------------------- END_MESSAGE_SEQ

void EndMessageSeq::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u16(count);
  out.u64(state_hash);
}
Result<EndMessageSeq> EndMessageSeq::read(core::ByteReader& in) {
  EndMessageSeq m;
  SORTIE_TRY(m.tick, get_tick(in));
  SORTIE_TRY(m.count, in.u16());
  SORTIE_TRY(m.state_hash, in.u64());
  return m;
}

// ---------------------------------------------------------------- REMOVE_RESOURCE

void RemoveResource::write(core::ByteWriter& out) const {
  out.u32(resource);
  out.u8(static_cast<std::uint8_t>(reason));
}
Result<RemoveResource> RemoveResource::read(core::ByteReader& in) {
  RemoveResource m;
  SORTIE_TRY(m.resource, in.u32());
  SORTIE_TRY(m.reason, get_reason(in));
  return m;
}

// ---------------------------------------------------------------- HELLO

void Hello::write(core::ByteWriter& out) const {
  out.bytes(core::ByteView(guid.data(), guid.size()));
  out.u16(version);
  wire::put_str8(out, name);
}
Result<Hello> Hello::read(core::ByteReader& in) {
  Hello m;
  SORTIE_TRY(const core::ByteView g, in.bytes(16));
  std::copy(g.begin(), g.end(), m.guid.begin());
  SORTIE_TRY(m.version, in.u16());
  SORTIE_TRY(m.name, wire::get_str8(in, kMaxNameBytes, "player name", true));
  return m;
}

// ---------------------------------------------------------------- WELCOME

void Welcome::write(core::ByteWriter& out) const {
  out.u16(version);
  out.u16(authority);
  out.u32(step_us);
  out.u64(seed);
  out.u64(session_id);
  out.u32(setup_count);
  out.u64(setup_hash);
  out.u64(live_tick);
}
Result<Welcome> Welcome::read(core::ByteReader& in) {
  Welcome m;
  SORTIE_TRY(m.version, in.u16());
  SORTIE_TRY(m.authority, wire::get_player(in, false));
  SORTIE_TRY(m.step_us, in.u32());
  SORTIE_TRY(m.seed, in.u64());
  SORTIE_TRY(m.session_id, in.u64());
  SORTIE_TRY(m.setup_count, in.u32());
  SORTIE_TRY(m.setup_hash, in.u64());
  SORTIE_TRY(m.live_tick, in.u64());
  return m;
}

// ---------------------------------------------------------------- REJECT

void Reject::write(core::ByteWriter& out) const {
  out.u8(static_cast<std::uint8_t>(reason));
  wire::put_str16(out, text);
}
Result<Reject> Reject::read(core::ByteReader& in) {
  Reject m;
  SORTIE_TRY(m.reason, get_reason(in));
  SORTIE_TRY(m.text, wire::get_str16(in, kMaxRejectTextBytes, "reject text"));
  return m;
}

// ---------------------------------------------------------------- ORDER / COMMAND / ACK

namespace {
Result<world::CommandKindId> get_kind(core::ByteReader& in) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint16_t kind, in.u16());
  if (kind == 0) return fail(bad(in, at, "command_kind", "command kind 0 is never a kind", "1..65535", "0"));
  return kind;
}
}  // namespace

void Order::write(core::ByteWriter& out) const {
  out.u16(kind);
  wire::put_blob16(out, payload);
}
Result<Order> Order::read(core::ByteReader& in) {
  Order m;
  SORTIE_TRY(m.kind, get_kind(in));
  SORTIE_TRY(m.payload, wire::get_blob16(in, kMaxCommandPayloadBytes, "command payload"));
  return m;
}

void TickCommand::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u16(kind);
  wire::put_blob16(out, payload);
}
Result<TickCommand> TickCommand::read(core::ByteReader& in) {
  TickCommand m;
  SORTIE_TRY(m.tick, get_tick(in));
  SORTIE_TRY(m.kind, get_kind(in));
  SORTIE_TRY(m.payload, wire::get_blob16(in, kMaxCommandPayloadBytes, "command payload"));
  return m;
}

void Ack::write(core::ByteWriter& out) const {
  out.u64(tick);
  out.u64(sync_tick);
}
Result<Ack> Ack::read(core::ByteReader& in) {
  Ack m;
  SORTIE_TRY(m.tick, in.u64());
  SORTIE_TRY(m.sync_tick, in.u64());
  return m;
}

MessageId id_of(const Message& message) {
  return std::visit([](const auto& m) { return std::decay_t<decltype(m)>::kId; }, message);
}

}  // namespace sortie::net
