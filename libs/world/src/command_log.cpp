#include "sortie/world/command_log.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sortie/world/limits.hpp"

namespace sortie::world {

using core::Diagnostic;
using core::fail;

namespace {

constexpr std::string_view kMagic = "SCLG";
constexpr std::uint32_t kVersion1 = 1;
constexpr std::size_t kMinV1CommandBytes = 8 + 1 + 8 + 16 + 8 + 4;
constexpr std::size_t kMinKindBytes = 2 + 4;
constexpr std::size_t kMinCommandBytes = 8 + 2 + 4;

Diagnostic unknown_kind(const CommandRegistry& registry, std::string what, std::string found) {
  return Diagnostic::error("command_log.kind_unknown", fmt::format("unknown command kind {}", what))
      .expect(registry.describe(), std::move(found));
}

// Checks one payload with its kind's codec; diagnostics carry absolute offsets of the log.
core::Status check_payload(const CommandKindInfo& kind, core::ByteView payload, std::size_t base) {
  core::ByteReader r(payload, "command log", base);
  r.set_code_prefix("command_log.payload");
  SORTIE_CHECK(kind.check(r));
  return r.require_end("command payload");
}

// The command list both versions share: a count (checked against the bytes left before
// anything is reserved), then per command its tick and what `read_rest` reads of the version's
// record after it.
template <class ReadRest>
core::Result<CommandLog> read_commands(core::ByteReader& r, std::size_t min_command_bytes, const ReadRest& read_rest) {
  SORTIE_TRY(auto count, r.u32());
  SORTIE_CHECK(r.check_count(count, min_command_bytes, "commands", kMaxLogCommands));
  CommandLog log;
  log.commands.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::string path = fmt::format("commands[{}]", i);
    Command c;
    SORTIE_TRY(c.tick, r.u64());
    SORTIE_CHECK(read_rest(c, path));
    log.commands.push_back(std::move(c));
  }
  return log;
}

// Version 1: a one-byte legacy kind and the fixed legacy fields, converted by the kind's codec.
core::Result<CommandLog> read_v1(core::ByteReader& r, const CommandRegistry& registry) {
  const auto read_rest = [&](Command& c, const std::string& path) -> core::Status {
    const std::size_t kind_at = r.offset();
    SORTIE_TRY(auto kind_id, r.u8());
    const CommandKindInfo* kind = registry.find(CommandKindId{kind_id});
    if (kind == nullptr || !kind->from_legacy) {
      return fail(unknown_kind(registry, fmt::format("{} in a version 1 log", kind_id), std::to_string(kind_id))
                      .at(kind_at)
                      .in(path + ".kind"));
    }
    LegacyCommandFields f;
    SORTIE_TRY(auto raw, r.u64());
    f.target = ObjectId::from_raw(raw);
    SORTIE_TRY(f.x, r.f32());
    SORTIE_TRY(f.y, r.f32());
    SORTIE_TRY(f.z, r.f32());
    SORTIE_TRY(f.speed, r.f32());
    SORTIE_TRY(auto value, r.u64());
    f.value = static_cast<std::int64_t>(value);
    SORTIE_TRY(f.text, r.lp_string(kMaxPayloadStringBytes));
    auto payload = kind->from_legacy(f);
    if (!payload) return fail(std::move(payload).error().at(kind_at - 8).within(path));
    c.kind = kind->wire_id;
    c.payload = std::move(*payload);
    return {};
  };
  SORTIE_TRY(auto log, read_commands(r, kMinV1CommandBytes, read_rest));
  SORTIE_CHECK(r.require_end("command log"));
  return log;
}

// Version 2: a table of the kinds used (wire id, name), then commands with a two-byte wire id
// and a size-prefixed payload checked by the kind's codec.
core::Result<CommandLog> read_v2(core::ByteReader& r, const CommandRegistry& registry) {
  SORTIE_TRY(auto kind_count, r.u32());
  SORTIE_CHECK(r.check_count(kind_count, kMinKindBytes, "kinds", kMaxLogKinds));
  std::vector<const CommandKindInfo*> table;  // parallel to the log's kind table
  std::vector<CommandKindId> ids;
  std::vector<bool> used(kind_count, false);
  table.reserve(kind_count);
  ids.reserve(kind_count);
  for (std::size_t k = 0; k < kind_count; ++k) {
    const std::string path = fmt::format("kinds[{}]", k);
    const std::size_t at = r.offset();
    SORTIE_TRY(auto id, r.u16());
    SORTIE_TRY(auto name, r.lp_string(kMaxCommandKindName));
    if (!ids.empty() && !(ids.back() < id)) {
      return fail(Diagnostic::error("command_log.kind_order", "kind table must be in ascending wire id order")
                      .at(at)
                      .in(path + ".wire_id")
                      .expect(fmt::format("> {}", ids.back()), std::to_string(id)));
    }
    const CommandKindInfo* kind = registry.find(CommandKindId{id});
    if (kind == nullptr) {
      return fail(unknown_kind(registry, fmt::format("'{}' (wire id {})", name, id), name).at(at).in(path));
    }
    if (kind->name != name) {
      return fail(Diagnostic::error(
                      "command_log.kind_mismatch",
                      fmt::format("wire id {} is '{}' in the log but '{}' in this registry", id, name, kind->name))
                      .at(at)
                      .in(path + ".name")
                      .expect(kind->name, name));
    }
    table.push_back(kind);
    ids.push_back(id);
  }
  const auto read_rest = [&](Command& c, const std::string& path) -> core::Status {
    const std::size_t kind_at = r.offset();
    SORTIE_TRY(c.kind, r.u16());
    auto pos = std::lower_bound(ids.begin(), ids.end(), c.kind);
    if (pos == ids.end() || *pos != c.kind) {
      return fail(Diagnostic::error("command_log.kind_undeclared", "command kind is not in the log's kind table")
                      .at(kind_at)
                      .in(path + ".kind")
                      .expect("a wire id of the kind table", std::to_string(c.kind)));
    }
    const auto k = static_cast<std::size_t>(pos - ids.begin());
    used[k] = true;
    const std::size_t size_at = r.offset();
    SORTIE_TRY(auto size, r.u32());
    if (size > kMaxCommandPayloadBytes) {
      return fail(r.error_at(size_at, "command_log.limit", "command payload is larger than the limit")
                      .in(path + ".payload")
                      .expect(fmt::format("<= {} bytes", kMaxCommandPayloadBytes), fmt::format("{} bytes", size)));
    }
    const std::size_t payload_at = r.offset();
    SORTIE_TRY(auto bytes, r.bytes(size));
    auto status = check_payload(*table[k], bytes, payload_at);
    if (!status) return fail(std::move(status).error().within(path + ".payload"));
    c.payload.assign(bytes.begin(), bytes.end());
    return {};
  };
  SORTIE_TRY(auto log, read_commands(r, kMinCommandBytes, read_rest));
  for (std::size_t k = 0; k < used.size(); ++k) {
    if (!used[k]) {
      return fail(Diagnostic::error("command_log.kind_unused", "kind table lists a kind no command uses")
                      .in(fmt::format("kinds[{}]", k))
                      .expect("only kinds of the log's commands", table[k]->name));
    }
  }
  SORTIE_CHECK(r.require_end("command log"));
  return log;
}

}  // namespace

core::Result<core::Bytes> write_command_log(const CommandLog& log, const CommandRegistry& registry) {
  // What the reader refuses is never written.
  if (log.commands.size() > kMaxLogCommands) {
    return fail(Diagnostic::error("command_log.limit", "more commands than a log holds")
                    .in("commands")
                    .expect(fmt::format("<= {}", kMaxLogCommands), std::to_string(log.commands.size())));
  }
  std::vector<const CommandKindInfo*> used;  // ascending wire id
  for (std::size_t i = 0; i < log.commands.size(); ++i) {
    const Command& c = log.commands[i];
    const CommandKindInfo* kind = registry.find(c.kind);
    if (kind == nullptr) {
      return fail(unknown_kind(registry, fmt::format("wire id {}", c.kind), std::to_string(c.kind))
                      .in(fmt::format("commands[{}].kind", i)));
    }
    if (c.payload.size() > kMaxCommandPayloadBytes) {
      return fail(
          Diagnostic::error("command_log.limit", "command payload is larger than the limit")
              .in(fmt::format("commands[{}].payload", i))
              .expect(fmt::format("<= {} bytes", kMaxCommandPayloadBytes), fmt::format("{} bytes", c.payload.size())));
    }
    auto status = check_payload(*kind, c.payload, 0);
    if (!status) return fail(std::move(status).error().within(fmt::format("commands[{}].payload", i)));
    auto pos = std::lower_bound(used.begin(), used.end(), kind, [](const CommandKindInfo* a, const CommandKindInfo* b) {
      return a->wire_id < b->wire_id;
    });
    if (pos == used.end() || *pos != kind) used.insert(pos, kind);
  }
  core::ByteWriter w(16 + log.commands.size() * (kMinCommandBytes + 16));
  w.bytes(kMagic);
  w.u32(kCommandLogVersion);
  w.u32(static_cast<std::uint32_t>(used.size()));
  for (const CommandKindInfo* kind : used) {
    w.u16(kind->wire_id);
    w.lp_string(kind->name);
  }
  w.u32(static_cast<std::uint32_t>(log.commands.size()));
  for (const Command& c : log.commands) {
    w.u64(c.tick);
    w.u16(c.kind);
    w.u32(static_cast<std::uint32_t>(c.payload.size()));
    w.bytes(c.payload);
  }
  return w.take();
}

core::Result<CommandLog> read_command_log(core::ByteView bytes, const CommandRegistry& registry) {
  core::ByteReader r(bytes, "command log");
  r.set_code_prefix("command_log");
  SORTIE_TRY(auto magic, r.bytes(4));
  if (core::as_chars(magic) != kMagic) {
    return fail(Diagnostic::error("command_log.magic", "not a sortie command log")
                    .at(0)
                    .in("magic")
                    .expect("SCLG", core::to_hex(magic)));
  }
  SORTIE_TRY(auto version, r.u32());
  if (version == kVersion1) return read_v1(r, registry);
  if (version == kCommandLogVersion) return read_v2(r, registry);
  return fail(Diagnostic::error("command_log.version", "unknown command log version")
                  .at(4)
                  .in("version")
                  .expect("1 or 2", std::to_string(version)));
}

}  // namespace sortie::world
