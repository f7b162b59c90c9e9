#pragma once
// The squad simulation on libs/world: the player's input as world command kinds (wire ids
// 24..29), a world object of class squad_game whose controller advances the SquadSim one step
// per world tick, the SquadSim's state hash folded into the world's, and a world command log
// that replays to the same hashes. SquadSim stays usable on its own (tests, bench, acceptance).
//
//   auto game = SquadWorld::create(map, {.seed = 7}, ticks);
//   game->step(frame);             // submits what changed in the input, then one world tick
//   game->sim().state_hash();      // the same as a standalone SquadSim fed the same frames
//   game->world().command_log();   // replays to the same world hashes (replay_squad_world)
//
// Commands (payloads little-endian, every one starts with the u64 raw ObjectId of the squad
// object; held state stays until the next command of its kind, "pressed" acts on one tick):
//   24 squad.move       i8 move_x, i8 move_y (-127..127), u8 sprint (0/1)        held
//   25 squad.aim        u8 rotate: bit0 aim left, bit1 aim right (other bits 0)   held
//   26 squad.manual     (nothing): toggles manual aim (Space)                      pressed
//   27 squad.cycle      (nothing): next target in the aim cone (Tab)               pressed
//   28 squad.formation  u8 formation 1 wedge, 2 line, 3 ring                       pressed
//   29 squad.session    u64 seed, u64 map fingerprint, u64 ticks (0: open)         restarts the
//                       simulation with this seed; the first command of every recorded log
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/squad/input.hpp"
#include "sortie/squad/map.hpp"
#include "sortie/squad/sim.hpp"
#include "sortie/world/class_registry.hpp"
#include "sortie/world/command.hpp"
#include "sortie/world/command_registry.hpp"
#include "sortie/world/controller.hpp"
#include "sortie/world/world.hpp"

namespace sortie::squad {

// World step of a squad world: 1/60 s rounded to microseconds (the simulation itself always
// advances exactly one SquadSim tick per world tick that is not paused).
inline constexpr std::uint32_t kSquadStepUs = 16'667;

struct SquadMoveCommand {
  static constexpr std::string_view kName = "squad.move";
  static constexpr world::CommandKindId kWireId = 24;
  world::ObjectId target{};
  std::int8_t move_x = 0;
  std::int8_t move_y = 0;
  bool sprint = false;
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SquadMoveCommand&, const SquadMoveCommand&) = default;
};

struct SquadAimCommand {
  static constexpr std::string_view kName = "squad.aim";
  static constexpr world::CommandKindId kWireId = 25;
  world::ObjectId target{};
  bool left = false;
  bool right = false;
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SquadAimCommand&, const SquadAimCommand&) = default;
};

struct SquadManualCommand {
  static constexpr std::string_view kName = "squad.manual";
  static constexpr world::CommandKindId kWireId = 26;
  world::ObjectId target{};
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SquadManualCommand&, const SquadManualCommand&) = default;
};

struct SquadCycleCommand {
  static constexpr std::string_view kName = "squad.cycle";
  static constexpr world::CommandKindId kWireId = 27;
  world::ObjectId target{};
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SquadCycleCommand&, const SquadCycleCommand&) = default;
};

struct SquadFormationCommand {
  static constexpr std::string_view kName = "squad.formation";
  static constexpr world::CommandKindId kWireId = 28;
  world::ObjectId target{};
  std::uint8_t formation = 1;
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SquadFormationCommand&, const SquadFormationCommand&) = default;
};

struct SquadSessionCommand {
  static constexpr std::string_view kName = "squad.session";
  static constexpr world::CommandKindId kWireId = 29;
  world::ObjectId target{};
  std::uint64_t seed = 1;
  std::uint64_t map_fingerprint = 0;
  std::uint64_t ticks = 0;
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v);  // world/payload_fields.hpp
  friend bool operator==(const SquadSessionCommand&, const SquadSessionCommand&) = default;
};

// Registers the six squad kinds.
core::Status register_squad_commands(world::CommandRegistry& registry);
// The standard set plus the squad kinds (shared, immutable).
const std::shared_ptr<const world::CommandRegistry>& squad_command_registry();

// The controller of the squad_game object: owns the SquadSim and the held input.
// Hash encoding: u64 sim tick, u64 sim state hash, the next frame's 4 input bytes.
class SquadSimController final : public world::Controller {
 public:
  explicit SquadSimController(SquadSim sim) : sim_(std::move(sim)) {}
  [[nodiscard]] std::string_view kind() const override { return "squad.sim"; }
  // Steps the simulation once with the held input (not while the world is paused), then
  // clears the pressed buttons.
  void update(world::UpdateContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  [[nodiscard]] std::unique_ptr<world::Controller> clone() const override;

  [[nodiscard]] const SquadSim& sim() const { return sim_; }
  [[nodiscard]] const InputFrame& input() const { return input_; }      // for the next step
  [[nodiscard]] const InputFrame& last_input() const { return last_; }  // of the last step
  [[nodiscard]] std::uint64_t planned_ticks() const { return planned_ticks_; }

  // Command hooks.
  InputFrame& edit_input() { return input_; }
  void restart(SquadSim sim);  // a new simulation; the held input is released
  void set_planned_ticks(std::uint64_t ticks) { planned_ticks_ = ticks; }

 private:
  SquadSim sim_;
  InputFrame input_;
  InputFrame last_;
  std::uint64_t planned_ticks_ = 0;
};

// The input frames as the commands that produce them: `held` is the held state before `frame`
// (updated); every command is stamped `tick`.
void frame_commands(world::ObjectId target, std::uint64_t tick, const InputFrame& frame, InputFrame& held,
                    std::vector<world::Command>& out);

class SquadWorld {
 public:
  // A world with the squad registry, one squad_game object and a squad.session command at tick
  // 0 (seed = config.seed, `planned_ticks` recorded for replays). Codes as SquadSim::create.
  static core::Result<SquadWorld> create(const SquadMap& map, const SimConfig& config = {},
                                         std::uint64_t planned_ticks = 0);
  // A world for replaying a log: the object only, no session command (the log brings it).
  static core::Result<SquadWorld> create_for_replay(const SquadMap& map, const SimConfig& config = {});
  SquadWorld(SquadWorld&&) noexcept;
  SquadWorld& operator=(SquadWorld&&) noexcept;
  ~SquadWorld();

  // Submits the commands that change the held input into `frame`, then one world tick.
  core::Status step(const InputFrame& frame);
  // One world tick with the input as the commands already submitted left it.
  core::Status tick();
  // Submits a squad.session with `seed` for the next tick: the simulation starts again there.
  core::Status restart(std::uint64_t seed);

  [[nodiscard]] const SquadSim& sim() const;
  [[nodiscard]] const SquadSimController& controller() const;
  [[nodiscard]] world::World& world() { return *world_; }
  [[nodiscard]] const world::World& world() const { return *world_; }
  [[nodiscard]] world::ObjectId object() const { return object_; }
  [[nodiscard]] std::uint64_t world_hash() const { return world_->last_hash(); }

 private:
  SquadWorld() = default;
  std::unique_ptr<world::World> world_;
  world::ObjectId object_{};
  world::Handle handle_{};
  InputFrame held_;
};

// The first squad.session command of a log; squad.run.session when there is none.
core::Result<SquadSessionCommand> find_session(const world::CommandLog& log);

}  // namespace sortie::squad

// The codecs are instantiated once, next to the field lists (the .cpp); no other file
// instantiates them, even one that sees payload_fields.hpp (a unity batch).
extern template struct sortie::world::PayloadCodec<sortie::squad::SquadMoveCommand>;
extern template struct sortie::world::PayloadCodec<sortie::squad::SquadAimCommand>;
extern template struct sortie::world::PayloadCodec<sortie::squad::SquadManualCommand>;
extern template struct sortie::world::PayloadCodec<sortie::squad::SquadCycleCommand>;
extern template struct sortie::world::PayloadCodec<sortie::squad::SquadFormationCommand>;
extern template struct sortie::world::PayloadCodec<sortie::squad::SquadSessionCommand>;
