#include "sortie/mission/bootstrap.hpp"

#include <fmt/format.h>

#include "sortie/mission/game_context.hpp"

namespace sortie::mission {

Bootstrap::Bootstrap(world::TraceOptions trace) : trace_(std::make_shared<world::Trace>(std::move(trace))) {
  lifecycle_.set_observer([t = trace_.get()](std::string_view line) { t->write("lifecycle", std::string(line)); });
}

Bootstrap::~Bootstrap() {
  lifecycle_.shut_down();
}

core::Status Bootstrap::add(world::Stage stage, std::string name, world::Lifecycle::StartFn start,
                            world::Lifecycle::StopFn stop) {
  return lifecycle_.add(stage, std::move(name), std::move(start), std::move(stop));
}

core::Status Bootstrap::add(ProgramSubsystem subsystem) {
  return add(subsystem.stage, std::move(subsystem.name), std::move(subsystem.start), std::move(subsystem.stop));
}

core::Status Bootstrap::add(std::vector<ProgramSubsystem> subsystems) {
  for (ProgramSubsystem& s : subsystems) SORTIE_CHECK(add(std::move(s)));
  return {};
}

void Bootstrap::attach(world::World& world) {
  world.set_trace(trace_);
  // What the queue already holds (a load registers everything at once, before there is a trace).
  if (world::Trace* t = world::traced(world, "queue")) {
    for (const world::Handle& h : world.queue()) {
      const world::WorldObject* o = world.find(h);
      if (o != nullptr)
        t->write("queue", fmt::format("add {} '{}' seq {} (at load)", o->id().to_string(), o->prototype_key,
                                      o->registration_sequence()));
    }
  }
}

core::Status Bootstrap::run(const std::function<core::Status()>& main_loop) {
  core::Status status = lifecycle_.start_up();
  if (!status) {
    // The subsystem's own diagnostic: a program reports it with its code and exit code.
    status = core::fail(lifecycle_.cause() ? *lifecycle_.cause() : status.error());
  } else {
    reached_main_loop_ = true;
    status = main_loop();
  }
  lifecycle_.shut_down();
  if (auto saved = trace_->save(); !saved && status) {
    write_failed_ = true;
    return saved;
  }
  return status;
}

// ---------------------------------------------------------------- maintenance

namespace {

void trace_trims(world::World& world, const std::vector<assets::CacheTrim>& trims) {
  world::Trace* t = world::traced(world, "queue");
  if (t == nullptr) return;
  for (const auto& trim : trims) t->write("queue", "trim " + trim.to_text());
}

}  // namespace

std::vector<assets::CacheTrim> short_maintenance(GameContext& game) {
  return {game.session().visual_cache().trim(), game.resolver().trim()};
}

std::vector<assets::CacheTrim> long_maintenance(GameContext& game) {
  return {game.vfs().trim_cache(), game.repository().trim()};
}

void register_maintenance(world::World& world, GameContext& game, world::MaintenanceDrive drive) {
  world.drive_maintenance_clock(drive);
  // The tasks hold the context's parts, which live on the heap: a GameContext may be moved (a
  // run's result is), its parts and the world they own stay where they are.
  assets::VisualCache* visuals = &game.session().visual_cache();
  assets::PrototypeResolver* resolver = &game.resolver();
  const assets::Vfs* vfs = &game.vfs();
  assets::ArchiveRepository* archives = &game.repository();
  world.add_maintenance_task("caches-20s", world::kShortMaintenanceUs, [visuals, resolver](world::World& w) {
    trace_trims(w, {visuals->trim(), resolver->trim()});
  });
  world.add_maintenance_task("caches-60s", world::kLongMaintenanceUs, [vfs, archives](world::World& w) {
    trace_trims(w, {vfs->trim_cache(), archives->trim()});
  });
}

}  // namespace sortie::mission
