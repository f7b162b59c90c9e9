#include "sortie/net/serve_mission.hpp"

#include "sortie/net/session_report.hpp"

namespace sortie::net {

namespace {

using world::Stage;

// Registers the server's subsystems; `failed_at` follows the one starting.
core::Status add_serve_subsystems(mission::Bootstrap& boot, const ServeMissionRequest& request, ServedMission& out,
                                  std::optional<HostedMission>& hosted) {
  SORTIE_CHECK(boot.add(Stage::library_ready, "archives", [&]() -> core::Status {
    out.failed_at = ServeStage::open;
    SORTIE_TRY(auto game, mission::open_game(request.source, request.mission));
    out.game.emplace(std::move(game));
    return {};
  }));
  SORTIE_CHECK(boot.add(Stage::game_created, "mission", [&]() -> core::Status {
    SORTIE_TRY(auto h, host_mission(out.game->context, out.game->mission, request.seed));
    hosted.emplace(std::move(h));
    out.setup = hosted->setup;
    return {};
  }));
  SORTIE_CHECK(boot.add(
      Stage::subsystems_ready, "transport",
      [&]() -> core::Status {
        out.failed_at = ServeStage::listen;
        SORTIE_TRY(out.session, ServeSession::listen(request.net));
        if (request.on_listening) request.on_listening(out.session->address());
        return {};
      },
      [&] {
        // A failed start closes the listener now; after the main loop the session stays for the report.
        if (!boot.reached_main_loop()) out.session.reset();
      }));
  SORTIE_CHECK(boot.add(Stage::subsystems_ready, "session", [&]() -> core::Status {
    out.failed_at = ServeStage::session;
    SORTIE_CHECK(out.session->host(hosted->setup));
    for (const world::Command& c : hosted->start)  // the units' movement bodies, as in `sortie run`
      SORTIE_CHECK(out.session->server().submit(c));
    return {};
  }));
  SORTIE_CHECK(boot.add(
      Stage::subsystems_ready, "world",
      [&]() -> core::Status {
        world::World& w = out.session->server().replica().world();
        boot.attach(w);
        mission::register_maintenance(w, out.game->context, world::MaintenanceDrive::real_time);
        return {};
      },
      [&] {
        if (out.session) out.session->server().replica().world().run_all_maintenance();
      }));
  if (request.scenario) {
    SORTIE_CHECK(boot.add(Stage::subsystems_ready, "scenario", [&]() -> core::Status {
      scenario::RuntimeOptions ro;
      ro.seed = request.seed;
      return out.session->play_scenario(*out.game->context.current(), ro);
    }));
  }
  return boot.add(request.subsystems);
}

}  // namespace

ServedMission serve_mission(const ServeMissionRequest& request) {
  ServedMission out;
  world::TraceOptions to;
  to.channels = request.trace;
  to.dir = request.net.trace_dir;
  mission::Bootstrap boot(std::move(to));
  std::optional<HostedMission> hosted;
  core::Status status = add_serve_subsystems(boot, request, out, hosted);
  if (status) {
    status = boot.run([&]() -> core::Status {
      if (request.on_hosted) request.on_hosted(hosted->setup, out.session->server().replica().state_hash());
      out.failed_at = ServeStage::session;
      if (auto run = out.session->run(); !run) {
        out.failed_at = run.error().transport ? ServeStage::transport : ServeStage::session;
        return core::fail(std::move(run.error().diagnostic));
      }
      out.failed_at = ServeStage::write;
      return out.session->save(request.log);
    });
  }
  if (!status) {
    out.failure = std::move(status.error());
    if (boot.write_failed()) out.failed_at = ServeStage::write;
  }
  out.lifecycle = boot.lifecycle().trace();
  return out;
}

}  // namespace sortie::net
