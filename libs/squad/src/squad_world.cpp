// The squad simulation on libs/world: command kinds, the controller and SquadWorld.
#include "sortie/squad/squad_world.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sortie/core/hash.hpp"
#include "sortie/world/command_json.hpp"

namespace sortie::squad {

using core::Json;
using world::ObjectId;

namespace {

core::Diagnostic payload_error(core::ByteReader& in, std::size_t at, std::string what, std::string expected,
                               std::string found) {
  return in.error_at(at, "squad.command.payload", std::move(what)).expect(std::move(expected), std::move(found));
}

core::Result<ObjectId> read_target(core::ByteReader& in) {
  SORTIE_TRY(const std::uint64_t raw, in.u64());
  return ObjectId::from_raw(raw);
}

core::Result<bool> read_flag(core::ByteReader& in, std::string_view name) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t v, in.u8());
  if (v > 1)
    return core::fail(payload_error(in, at, fmt::format("{} must be 0 or 1", name), "0 or 1", fmt::format("{}", v)));
  return v == 1;
}

core::Result<std::int8_t> read_axis(core::ByteReader& in) {
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t v, in.u8());
  if (v == 0x80) return core::fail(payload_error(in, at, "movement byte -128 is not used", "-127 .. 127", "-128"));
  return static_cast<std::int8_t>(v);
}

core::Result<std::int8_t> json_axis(const Json& in, std::string_view key, const std::string& path) {
  SORTIE_TRY(const std::int8_t v, world::json_get<std::int8_t>(in, key, path));
  if (v == -128) {
    return core::fail(core::Diagnostic::error("command_log.field_type", "movement -128 is not used")
                          .in(path + "." + std::string(key))
                          .expect("-127 .. 127", "-128"));
  }
  return v;
}

// The controller of a live squad object, or nullptr (gone, or another controller).
SquadSimController* controller_of(world::World& w, ObjectId id) {
  world::WorldObject* o = w.find_live(id);
  if (o == nullptr) return nullptr;
  return dynamic_cast<SquadSimController*>(o->controller.get());
}

template <class P>
world::CommandKindInfo held_kind(void (*apply)(InputFrame&, const P&)) {
  return world::command_kind<P>({}, [apply](world::World& w, const P& c) -> core::Result<world::CommandOutcome> {
    SquadSimController* ctl = controller_of(w, c.target);
    if (ctl == nullptr) return world::CommandOutcome::skipped;
    apply(ctl->edit_input(), c);
    return world::CommandOutcome::applied;
  });
}

}  // namespace

// ---------------------------------------------------------------- payloads

void SquadMoveCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.u8(static_cast<std::uint8_t>(move_x));
  out.u8(static_cast<std::uint8_t>(move_y));
  out.u8(sprint ? 1 : 0);
}

core::Result<SquadMoveCommand> SquadMoveCommand::read(core::ByteReader& in) {
  SquadMoveCommand c;
  SORTIE_TRY(c.target, read_target(in));
  SORTIE_TRY(c.move_x, read_axis(in));
  SORTIE_TRY(c.move_y, read_axis(in));
  SORTIE_TRY(c.sprint, read_flag(in, "sprint"));
  return c;
}

void SquadMoveCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  out["move_x"] = move_x;
  out["move_y"] = move_y;
  out["sprint"] = sprint;
}

core::Result<SquadMoveCommand> SquadMoveCommand::from_json(const Json& in, const std::string& path) {
  SquadMoveCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.move_x, json_axis(in, "move_x", path));
  SORTIE_TRY(c.move_y, json_axis(in, "move_y", path));
  SORTIE_TRY(c.sprint, world::json_get<bool>(in, "sprint", path));
  return c;
}

void SquadAimCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.u8(static_cast<std::uint8_t>((left ? 1u : 0u) | (right ? 2u : 0u)));
}

core::Result<SquadAimCommand> SquadAimCommand::read(core::ByteReader& in) {
  SquadAimCommand c;
  SORTIE_TRY(c.target, read_target(in));
  const std::size_t at = in.offset();
  SORTIE_TRY(const std::uint8_t bits, in.u8());
  if ((bits & ~3u) != 0) {
    return core::fail(
        payload_error(in, at, "reserved aim bits are set", "bits 2..7 clear", fmt::format("0x{:02x}", bits)));
  }
  c.left = (bits & 1u) != 0;
  c.right = (bits & 2u) != 0;
  return c;
}

void SquadAimCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  out["left"] = left;
  out["right"] = right;
}

core::Result<SquadAimCommand> SquadAimCommand::from_json(const Json& in, const std::string& path) {
  SquadAimCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.left, world::json_get<bool>(in, "left", path));
  SORTIE_TRY(c.right, world::json_get<bool>(in, "right", path));
  return c;
}

void SquadManualCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
}

core::Result<SquadManualCommand> SquadManualCommand::read(core::ByteReader& in) {
  SquadManualCommand c;
  SORTIE_TRY(c.target, read_target(in));
  return c;
}

void SquadManualCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
}

core::Result<SquadManualCommand> SquadManualCommand::from_json(const Json& in, const std::string& path) {
  SquadManualCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  return c;
}

void SquadCycleCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
}

core::Result<SquadCycleCommand> SquadCycleCommand::read(core::ByteReader& in) {
  SquadCycleCommand c;
  SORTIE_TRY(c.target, read_target(in));
  return c;
}

void SquadCycleCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
}

core::Result<SquadCycleCommand> SquadCycleCommand::from_json(const Json& in, const std::string& path) {
  SquadCycleCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  return c;
}

void SquadFormationCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.u8(formation);
}

core::Result<SquadFormationCommand> SquadFormationCommand::read(core::ByteReader& in) {
  SquadFormationCommand c;
  SORTIE_TRY(c.target, read_target(in));
  const std::size_t at = in.offset();
  SORTIE_TRY(c.formation, in.u8());
  if (c.formation < 1 || c.formation > 3) {
    return core::fail(payload_error(in, at, "unknown formation", "1 .. 3", fmt::format("{}", c.formation)));
  }
  return c;
}

void SquadFormationCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  out["formation"] = formation;
}

core::Result<SquadFormationCommand> SquadFormationCommand::from_json(const Json& in, const std::string& path) {
  SquadFormationCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.formation, world::json_get<std::uint8_t>(in, "formation", path));
  if (c.formation < 1 || c.formation > 3) {
    return core::fail(core::Diagnostic::error("command_log.field_type", "unknown formation")
                          .in(path + ".formation")
                          .expect("1 .. 3", fmt::format("{}", c.formation)));
  }
  return c;
}

void SquadSessionCommand::write(core::ByteWriter& out) const {
  out.u64(target.raw());
  out.u64(seed);
  out.u64(map_fingerprint);
  out.u64(ticks);
}

core::Result<SquadSessionCommand> SquadSessionCommand::read(core::ByteReader& in) {
  SquadSessionCommand c;
  SORTIE_TRY(c.target, read_target(in));
  SORTIE_TRY(c.seed, in.u64());
  SORTIE_TRY(c.map_fingerprint, in.u64());
  const std::size_t at = in.offset();
  SORTIE_TRY(c.ticks, in.u64());
  if (c.ticks > kInputLogTicksMax) {
    return core::fail(payload_error(in, at, "session longer than the tick limit",
                                    fmt::format("<= {}", kInputLogTicksMax), fmt::format("{}", c.ticks)));
  }
  return c;
}

void SquadSessionCommand::to_json(Json& out) const {
  world::json_put_object_id(out, "target", target);
  out["seed"] = seed;
  out["map_fingerprint"] = map_fingerprint;
  out["ticks"] = ticks;
}

core::Result<SquadSessionCommand> SquadSessionCommand::from_json(const Json& in, const std::string& path) {
  SquadSessionCommand c;
  SORTIE_TRY(c.target, world::json_get_object_id(in, "target", path));
  SORTIE_TRY(c.seed, world::json_get<std::uint64_t>(in, "seed", path));
  SORTIE_TRY(c.map_fingerprint, world::json_get<std::uint64_t>(in, "map_fingerprint", path));
  SORTIE_TRY(c.ticks, world::json_get<std::uint64_t>(in, "ticks", path));
  if (c.ticks > kInputLogTicksMax) {
    return core::fail(core::Diagnostic::error("command_log.field_type", "session longer than the tick limit")
                          .in(path + ".ticks")
                          .expect(fmt::format("<= {}", kInputLogTicksMax), fmt::format("{}", c.ticks)));
  }
  return c;
}

// ---------------------------------------------------------------- registration

core::Status register_squad_commands(world::CommandRegistry& registry) {
  SORTIE_CHECK(registry.register_kind(held_kind<SquadMoveCommand>([](InputFrame& f, const SquadMoveCommand& c) {
    f.move_x = c.move_x;
    f.move_y = c.move_y;
    f.sprint = c.sprint;
  })));
  SORTIE_CHECK(registry.register_kind(held_kind<SquadAimCommand>([](InputFrame& f, const SquadAimCommand& c) {
    f.aim_left = c.left;
    f.aim_right = c.right;
  })));
  SORTIE_CHECK(registry.register_kind(
      held_kind<SquadManualCommand>([](InputFrame& f, const SquadManualCommand&) { f.toggle_manual = true; })));
  SORTIE_CHECK(registry.register_kind(
      held_kind<SquadCycleCommand>([](InputFrame& f, const SquadCycleCommand&) { f.cycle_target = true; })));
  SORTIE_CHECK(registry.register_kind(held_kind<SquadFormationCommand>(
      [](InputFrame& f, const SquadFormationCommand& c) { f.formation = c.formation; })));
  SORTIE_CHECK(registry.register_kind(world::command_kind<SquadSessionCommand>(
      [](const world::World& w, const SquadSessionCommand& c) -> core::Status {
        const auto handle = w.lookup(c.target);
        const world::WorldObject* o = handle ? w.find(*handle) : nullptr;
        const auto* ctl = o != nullptr ? dynamic_cast<const SquadSimController*>(o->controller.get()) : nullptr;
        if (ctl == nullptr) return {};  // skipped when applied
        const std::uint64_t fp = map_fingerprint(ctl->sim().map());
        if (fp != c.map_fingerprint) {
          return core::fail(core::Diagnostic::error("squad.run.map_mismatch", "the session was recorded on another map")
                                .expect(core::hash_hex(fp), core::hash_hex(c.map_fingerprint)));
        }
        return {};
      },
      [](world::World& w, const SquadSessionCommand& c) -> core::Result<world::CommandOutcome> {
        SquadSimController* ctl = controller_of(w, c.target);
        if (ctl == nullptr) return world::CommandOutcome::skipped;
        // A fresh simulation with this seed already (the usual first command) is kept as it is,
        // with its configuration (event log, hash history).
        if (ctl->sim().tick() != 0 || ctl->sim().seed() != c.seed) {
          SimConfig config;
          config.seed = c.seed;
          SORTIE_TRY(SquadSim sim, SquadSim::create(ctl->sim().map(), config));
          ctl->restart(std::move(sim));
        }
        ctl->set_planned_ticks(c.ticks);
        return world::CommandOutcome::applied;
      })));
  return {};
}

const std::shared_ptr<const world::CommandRegistry>& squad_command_registry() {
  static const std::shared_ptr<const world::CommandRegistry> registry = [] {
    world::CommandRegistry r = world::CommandRegistry::standard();
    auto status = register_squad_commands(r);
    // Our own fixed kinds: a failure is a programming error, never bad input.
    if (!status) throw std::logic_error("squad command registry: " + status.error().to_string());
    return std::make_shared<const world::CommandRegistry>(std::move(r));
  }();
  return registry;
}

// ---------------------------------------------------------------- controller

void SquadSimController::update(world::UpdateContext& ctx) {
  if (ctx.clock.dt_us == 0) return;  // paused: the simulation stands still
  sim_.step(input_);
  last_ = input_;
  input_.toggle_manual = false;
  input_.cycle_target = false;
  input_.formation = 0;
}

void SquadSimController::encode(world::StateWriter& out) const {
  out.u64(sim_.tick());
  out.u64(sim_.state_hash());
  core::ByteWriter w;
  write_input_frame(w, input_);
  for (const std::uint8_t b : w.take()) out.u8(b);
  out.u64(planned_ticks_);
}

std::unique_ptr<world::Controller> SquadSimController::clone() const {
  auto copy = std::make_unique<SquadSimController>(sim_.clone());
  copy->input_ = input_;
  copy->last_ = last_;
  copy->planned_ticks_ = planned_ticks_;
  return copy;
}

void SquadSimController::restart(SquadSim sim) {
  sim_ = std::move(sim);
  input_ = {};
  last_ = {};
}

void frame_commands(ObjectId target, std::uint64_t tick, const InputFrame& frame, InputFrame& held,
                    std::vector<world::Command>& out) {
  if (frame.move_x != held.move_x || frame.move_y != held.move_y || frame.sprint != held.sprint) {
    out.push_back(world::make_command(tick, SquadMoveCommand{target, frame.move_x, frame.move_y, frame.sprint}));
    held.move_x = frame.move_x;
    held.move_y = frame.move_y;
    held.sprint = frame.sprint;
  }
  if (frame.aim_left != held.aim_left || frame.aim_right != held.aim_right) {
    out.push_back(world::make_command(tick, SquadAimCommand{target, frame.aim_left, frame.aim_right}));
    held.aim_left = frame.aim_left;
    held.aim_right = frame.aim_right;
  }
  if (frame.toggle_manual) out.push_back(world::make_command(tick, SquadManualCommand{target}));
  if (frame.cycle_target) out.push_back(world::make_command(tick, SquadCycleCommand{target}));
  if (frame.formation != 0) out.push_back(world::make_command(tick, SquadFormationCommand{target, frame.formation}));
}

// ---------------------------------------------------------------- SquadWorld

SquadWorld::SquadWorld(SquadWorld&&) noexcept = default;
SquadWorld& SquadWorld::operator=(SquadWorld&&) noexcept = default;
SquadWorld::~SquadWorld() = default;

core::Result<SquadWorld> SquadWorld::create_for_replay(const SquadMap& map, const SimConfig& config) {
  SORTIE_TRY(SquadSim sim, SquadSim::create(map, config));
  SquadWorld g;
  world::WorldConfig wc;
  wc.seed = config.seed;
  wc.step_us = kSquadStepUs;
  wc.keep_hash_history = config.keep_hash_history;
  wc.commands = squad_command_registry();
  g.world_ = std::make_unique<world::World>(wc);
  SORTIE_TRY(g.handle_, g.world_->create_local_object(world::class_ids::kSquadGame, "squad_game"));
  SORTIE_TRY(world::WorldObject * o, g.world_->object(g.handle_));
  o->controller = std::make_unique<SquadSimController>(std::move(sim));
  g.object_ = o->id();
  SORTIE_CHECK(g.world_->add_to_game(g.handle_));
  return g;
}

core::Result<SquadWorld> SquadWorld::create(const SquadMap& map, const SimConfig& config, std::uint64_t planned_ticks) {
  SORTIE_TRY(SquadWorld g, create_for_replay(map, config));
  SORTIE_CHECK(g.world_->submit(
      world::make_command(0, SquadSessionCommand{g.object_, config.seed, map_fingerprint(map), planned_ticks})));
  return g;
}

core::Status SquadWorld::step(const InputFrame& frame) {
  std::vector<world::Command> commands;
  frame_commands(object_, world_->clock().tick, frame, held_, commands);
  for (auto& c : commands) SORTIE_CHECK(world_->submit(std::move(c)));
  return tick();
}

core::Status SquadWorld::tick() {
  return world_->tick();
}

core::Status SquadWorld::restart(std::uint64_t seed) {
  const SquadSim& s = sim();
  SORTIE_CHECK(world_->submit(
      world::make_command(world_->clock().tick, SquadSessionCommand{object_, seed, map_fingerprint(s.map()), 0})));
  held_ = {};
  return {};
}

const SquadSimController& SquadWorld::controller() const {
  const world::WorldObject* o = world_->find(handle_);
  return static_cast<const SquadSimController&>(*o->controller);
}

const SquadSim& SquadWorld::sim() const {
  return controller().sim();
}

core::Result<SquadSessionCommand> find_session(const world::CommandLog& log) {
  for (const world::Command& c : log.commands) {
    if (c.kind == SquadSessionCommand::kWireId) return world::payload_of<SquadSessionCommand>(c);
  }
  return core::fail(core::Diagnostic::error("squad.run.session", "the command log has no squad.session command"));
}

}  // namespace sortie::squad
