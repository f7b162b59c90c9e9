#include "sortie/net/session_report.hpp"

#include <fmt/format.h>

#include <optional>

#include "sortie/core/hash.hpp"
#include "sortie/mission/game_context.hpp"
#include "sortie/mission/mission_scenario.hpp"
#include "sortie/mission/scenario.hpp"
#include "sortie/nav/iron3d_input.hpp"

namespace sortie::net {

core::Result<HostedMission> host_mission(mission::GameContext& context, std::string_view mission_name,
                                         std::uint64_t seed) {
  mission::MissionLoadOptions lo;
  lo.world.seed = seed;
  SORTIE_TRY(const auto report, context.load(mission_name, lo));
  if (!report.ok) {
    return core::fail(report.failures.empty() ? core::Diagnostic::error("serve.load", "the mission did not load")
                                              : report.failures.front());
  }
  const mission::LoadedMission* loaded = context.current();
  const assets::MissionData* data = loaded != nullptr ? loaded->data.get() : nullptr;
  if (data == nullptr || !loaded->world) {
    return core::fail(core::Diagnostic::error("serve.load", "the mission loaded without a world"));
  }
  std::optional<nav::TriangleSoup> terrain;
  if (!data->land_msh.faces.empty()) terrain = nav::triangle_soup_from(data->land_msh);
  SessionMovement movement;
  if (!data->land_map.areals.empty()) movement.areals = data->land_map;
  if (loaded->movement) movement.params = loaded->movement->params;
  HostedMission hosted;
  hosted.start = mission::movement_start_commands(*loaded, mission::ScenarioOptions{}, 0);
  SORTIE_TRY(hosted.setup,
             capture_setup(*loaded->world, seed, report.mission, std::move(terrain), std::move(movement)));
  return hosted;
}

namespace {

core::Json tick_times_json(const TickTimes& t) {
  return core::Json{{"count", t.count()}, {"mean", t.mean_us()}, {"p99", t.quantile_us(0.99)}, {"max", t.max_us()}};
}

// The scenario of a session's world: objectives and outcome (replicated world state), with the
// parts and their diagnostics on the server that ran them; nullopt when no scenario started.
std::optional<mission::ScenarioSummary> session_scenario(const world::World& world, const ServerScenario* played) {
  return mission::summarize_scenario(world, played != nullptr ? &played->runtime() : nullptr);
}

}  // namespace

core::Json serve_report_json(const ServeSession& session, const SessionSetup& setup) {
  const Server& s = session.server();
  const ServerStats& st = s.stats();
  const TransportStats udp = session.transport_stats();
  core::Json departures = core::Json::array();
  for (const auto& d : s.departures()) {
    departures.push_back({{"peer", d.peer},
                          {"player", d.player},
                          {"reason", std::string(to_string(d.reason))},
                          {"detail", d.detail},
                          {"tick", d.tick},
                          {"objects", d.objects}});
  }
  const core::Json traffic{{"packets_in", st.packets_in},         {"bytes_in", st.bytes_in},
                           {"messages_in", st.messages_in},       {"packets_out", st.packets_out},
                           {"bytes_out", st.bytes_out},           {"messages_out", st.messages_out},
                           {"catch_up_bytes", st.catch_up_bytes}, {"sync_bytes", st.sync_bytes},
                           {"udp_bytes_in", udp.bytes_received},  {"udp_bytes_out", udp.bytes_sent}};
  core::Json out{{"ok", true},
                 {"address", session.address()},
                 {"mission", setup.mission_path},
                 {"ticks", s.ticks()},
                 {"objects", s.world().live_count()},
                 {"players", s.replica().players().size()},
                 {"closing_tick", session.closing_tick()},
                 {"orders_accepted", st.orders_accepted},
                 {"orders_rejected", st.orders_rejected},
                 {"departures", departures},
                 {"traffic", traffic},
                 {"tick_us", tick_times_json(st.tick_times)},
                 {"final_hash", core::hash_hex(s.replica().state_hash())}};
  if (const auto scenario = session_scenario(s.world(), session.scenario())) out["scenario"] = scenario->to_json();
  return out;
}

std::string serve_report_text(const ServeSession& session) {
  const Server& s = session.server();
  const ServerStats& st = s.stats();
  const TransportStats udp = session.transport_stats();
  std::string out;
  for (const auto& d : s.departures()) {
    out +=
        fmt::format("player {} left at tick {}: {} ({} objects)\n", d.player, d.tick, to_string(d.reason), d.objects);
  }
  out += fmt::format("ran {} ticks{}, {} objects, {} players joined\n", s.ticks(),
                     session.closing_tick() ? " (the last one a closing tick for players lost after the end)" : "",
                     s.world().live_count(), s.replica().players().size() - 1);
  out += fmt::format(
      "traffic: in {} messages, {} bytes; out {} messages, {} bytes ({} of setup and catch-up); UDP in {} out {} "
      "bytes\n",
      st.messages_in, st.bytes_in, st.messages_out, st.bytes_out, st.catch_up_bytes, udp.bytes_received,
      udp.bytes_sent);
  out += fmt::format("tick time: mean {:.0f} us, p99 {} us, max {} us\n", st.tick_times.mean_us(),
                     st.tick_times.quantile_us(0.99), st.tick_times.max_us());
  if (const auto scenario = session_scenario(s.world(), session.scenario())) out += scenario->to_text();
  out += "final state hash: " + core::hash_hex(s.replica().state_hash()) + "\n";
  return out;
}

core::Json join_report_json(const JoinSession& session, std::uint64_t hash) {
  const Client& c = session.client();
  const ClientStats& cs = c.stats();
  const TransportStats udp = session.transport_stats();
  core::Json out{{"ok", true},
                 {"player", c.player()},
                 {"ticks", c.ticks()},
                 {"joined_at_tick", c.live_tick()},
                 {"orders", session.orders_sent()},
                 {"sync_applied", cs.sync_applied},
                 {"sync_verified", cs.sync_verified},
                 {"sync_mismatches", cs.sync_mismatches},
                 {"traffic",
                  {{"packets_in", cs.packets_in},
                   {"bytes_in", cs.bytes_in},
                   {"messages_in", cs.messages_in},
                   {"messages_out", cs.messages_out},
                   {"bytes_out", cs.bytes_out},
                   {"acks_out", cs.acks_sent},
                   {"udp_bytes_in", udp.bytes_received},
                   {"udp_bytes_out", udp.bytes_sent}}},
                 {"final_hash", core::hash_hex(hash)}};
  if (session.replica() != nullptr) {
    if (const auto scenario = session_scenario(session.replica()->world(), nullptr))
      out["scenario"] = scenario->to_json();
  }
  if (session.relay() != nullptr) {
    const auto rs = session.relay()->stats();
    out["relay"] = {{"datagrams", rs.datagrams_in},
                    {"dropped", rs.dropped},
                    {"duplicated", rs.duplicated},
                    {"held_back", rs.held_back}};
  }
  return out;
}

std::string join_report_text(const JoinSession& session, std::uint64_t hash) {
  const Client& c = session.client();
  const ClientStats& cs = c.stats();
  const TransportStats udp = session.transport_stats();
  std::string out = fmt::format(
      "player {} joined at tick {}, followed {} ticks ({} orders, {} sync entries checked, {} mismatches)\n",
      c.player(), c.live_tick(), c.ticks(), session.orders_sent(), cs.sync_verified, cs.sync_mismatches);
  out += fmt::format("traffic: in {} messages, {} bytes; out {} messages ({} acks), {} bytes; UDP in {} out {} bytes\n",
                     cs.messages_in, cs.bytes_in, cs.messages_out, cs.acks_sent, cs.bytes_out, udp.bytes_received,
                     udp.bytes_sent);
  if (session.replica() != nullptr) {
    if (const auto scenario = session_scenario(session.replica()->world(), nullptr)) out += scenario->to_text();
  }
  out += "final state hash: " + core::hash_hex(hash) + "\n";
  return out;
}

core::Json replay_report_json(const ReplayOutcome& outcome) {
  return core::Json{{"ok", true},
                    {"mission", outcome.mission_path},
                    {"ticks", outcome.ticks},
                    {"objects", outcome.objects},
                    {"players", outcome.players},
                    {"final_hash", core::hash_hex(outcome.final_hash)}};
}

std::string replay_report_text(const ReplayOutcome& outcome) {
  return fmt::format("replayed {} ticks of {} ({} objects, {} players)\nfinal state hash: {}\n", outcome.ticks,
                     outcome.mission_path, outcome.objects, outcome.players, core::hash_hex(outcome.final_hash));
}

}  // namespace sortie::net
