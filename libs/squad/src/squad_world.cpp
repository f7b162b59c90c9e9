// The squad simulation on libs/world: command kinds, the controller and SquadWorld.
#include "sortie/squad/squad_world.hpp"

#include <stdexcept>

#include "sortie/core/hash.hpp"
#include "sortie/squad/class_ids.hpp"
#include "sortie/world/payload_fields.hpp"

namespace sortie::squad {

using world::ObjectId;

namespace {

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

// ---------------------------------------------------------------- payload fields

namespace {

constexpr std::string_view kPayloadError = "squad.command.payload";
constexpr world::field::Range<std::int8_t> kAxis{kPayloadError, "movement -128 is not used", -127, 127};
constexpr world::field::Flag kFlag{kPayloadError};
constexpr std::string_view kAimBits[] = {"left", "right"};

}  // namespace

template <class Self, class V>
void SquadMoveCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.move_x, "move_x", kAxis);
  v(c.move_y, "move_y", kAxis);
  v(c.sprint, "sprint", kFlag);
}

template <class Self, class V>
void SquadAimCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v.bits(world::field::Bits{kPayloadError, "reserved aim bits are set", kAimBits}, c.left, c.right);
}

template <class Self, class V>
void SquadManualCommand::fields(Self& c, V& v) {
  v(c.target, "target");
}

template <class Self, class V>
void SquadCycleCommand::fields(Self& c, V& v) {
  v(c.target, "target");
}

template <class Self, class V>
void SquadFormationCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.formation, "formation", world::field::Range<std::uint8_t>{kPayloadError, "unknown formation", 1, 3});
}

template <class Self, class V>
void SquadSessionCommand::fields(Self& c, V& v) {
  v(c.target, "target");
  v(c.seed, "seed");
  v(c.map_fingerprint, "map_fingerprint");
  v(c.ticks, "ticks",
    world::field::Range<std::uint64_t>{kPayloadError, "session longer than the tick limit", 0, kInputLogTicksMax});
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
  SORTIE_CHECK(g.world_->classes().add(squad::kClasses));
  SORTIE_TRY(g.handle_, g.world_->create_local_object(squad::class_ids::kSquadGame, "squad_game"));
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

template struct sortie::world::PayloadCodec<sortie::squad::SquadMoveCommand>;
template struct sortie::world::PayloadCodec<sortie::squad::SquadAimCommand>;
template struct sortie::world::PayloadCodec<sortie::squad::SquadManualCommand>;
template struct sortie::world::PayloadCodec<sortie::squad::SquadCycleCommand>;
template struct sortie::world::PayloadCodec<sortie::squad::SquadFormationCommand>;
template struct sortie::world::PayloadCodec<sortie::squad::SquadSessionCommand>;
