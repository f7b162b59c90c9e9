#include "sortie/scenario/runtime.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/core/json.hpp"
#include "sortie/scenario/class_ids.hpp"
#include "sortie/scenario/commands.hpp"
#include "sortie/world/world.hpp"

namespace sortie::scenario {

namespace {

// What the world's event handlers write into. Shared with the handlers (World has no way to
// unregister one), so a world that outlives its runtime never calls into a dead object.
struct Inbox {
  bool open = true;
  std::vector<world::Event> events;
  std::vector<EventIds> ids;
};

constexpr world::EventType kWatched[] = {world::EventType::arrived, world::EventType::spawned, world::EventType::damage,
                                         world::EventType::collision, world::EventType::timer};

struct PartSlot {
  std::unique_ptr<ScenarioPart> part;
  std::string name;
  bool running = true;
  bool started = false;
  std::optional<core::Diagnostic> error;
};

}  // namespace

struct ScenarioRuntime::Impl {
  world::World& world;
  MissionFacts facts;
  RuntimeOptions options;
  std::vector<PartSlot> parts;
  std::shared_ptr<Inbox> inbox = std::make_shared<Inbox>();
  std::vector<world::Event> events;  // of the current step
  std::vector<EventIds> event_ids;
  std::vector<world::ObjectId> known, created, destroyed;
  std::vector<PlayerChange> players, players_now;
  std::vector<core::Diagnostic> diagnostics;
  std::uint64_t warnings = 0;
  std::uint64_t warnings_dropped = 0;
  std::shared_ptr<world::Trace> trace;  // the world's (installed when it had none and a channel is on)
  std::vector<TraceLine> messages;
  std::uint64_t message_count = 0;
  std::uint32_t next_spawn = 0;
  std::uint64_t digest = 0;
  bool digest_submitted = false;
  std::uint64_t steps = 0;
  bool started = false;
  core::StateWriter scratch;

  Impl(world::World& w, MissionFacts f, RuntimeOptions o) : world(w), facts(std::move(f)), options(std::move(o)) {
    trace = world.shared_trace();
    if (!trace) {
      trace = std::make_shared<world::Trace>(options.trace);
      if (trace->any()) world.set_trace(trace);
    }
  }

  [[nodiscard]] bool channel_on(std::string_view channel) const { return trace->on(channel); }
  void add_trace(std::string_view channel, std::string text) {
    if (channel == "message") {
      ++message_count;
      if (messages.size() == kMaxMessages) messages.erase(messages.begin());
      messages.push_back(TraceLine{world.clock().tick, std::string(channel), text});
    }
    if (channel_on(channel)) trace->write_at(world.clock().tick, channel, std::move(text));
  }
  // A command of the runtime for the world's next tick (RuntimeOptions::submit).
  core::Status send(world::Command c) {
    return options.submit ? options.submit(std::move(c)) : world.submit(std::move(c));
  }
  void warn(core::Diagnostic d) {
    ++warnings;
    if (diagnostics.size() < options.max_warnings) {
      diagnostics.push_back(std::move(d));
    } else {
      ++warnings_dropped;
    }
  }

  void subscribe() {
    for (world::EventType type : kWatched) {
      world.on(type, [inbox = inbox](world::World& w, const world::Event& e) {
        if (!inbox->open) return;
        EventIds ids;
        if (const world::WorldObject* o = w.find(e.target)) ids.target = o->id();
        if (const world::WorldObject* o = w.find(e.other)) ids.other = o->id();
        inbox->events.push_back(e);
        inbox->ids.push_back(ids);
      });
    }
  }

  // The registered objects now (ascending id; not the scenario object).
  std::vector<world::ObjectId> registered() const {
    std::vector<world::ObjectId> out;
    out.reserve(world.queue().size());
    for (const world::Handle& h : world.queue()) {
      const world::WorldObject* o = world.find(h);
      if (o == nullptr || o->pending_delete() || o->class_id() == scenario::class_ids::kScenario) continue;
      out.push_back(o->id());
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  void take_inputs() {
    events.swap(inbox->events);
    event_ids.swap(inbox->ids);
    inbox->events.clear();
    inbox->ids.clear();
    std::vector<world::ObjectId> now = registered();
    created.clear();
    destroyed.clear();
    std::set_difference(now.begin(), now.end(), known.begin(), known.end(), std::back_inserter(created));
    std::set_difference(known.begin(), known.end(), now.begin(), now.end(), std::back_inserter(destroyed));
    known = std::move(now);
    players_now.swap(players);
    players.clear();
  }

  ScenarioContext context() {
    ScenarioContext ctx{world, facts, world.clock().tick, nullptr, nullptr, events};
    const std::uint64_t tick = ctx.tick;
    ctx.submit = [this, tick](world::Command c) {
      c.tick = tick;
      return send(std::move(c));
    };
    ctx.trace = [this](std::string_view channel, std::string text) { add_trace(channel, std::move(text)); };
    ctx.event_ids = event_ids;
    ctx.created = created;
    ctx.destroyed = destroyed;
    ctx.players = players_now;
    ctx.allocate_id = [this] {
      return world::ObjectId{world.local_player(), scenario::class_ids::kScenarioUnit, ++next_spawn};
    };
    ctx.warn = [this](core::Diagnostic d) { warn(std::move(d)); };
    ctx.seed = options.seed;
    ctx.find_part = [this](std::string_view name) -> ScenarioPart* {
      for (PartSlot& slot : parts)
        if (slot.running && slot.name == name) return slot.part.get();
      return nullptr;
    };
    return ctx;
  }

  void stop(PartSlot& slot, core::Diagnostic d) {
    if (d.field.empty()) d.field = fmt::format("tick {}", world.clock().tick);
    if (d.file.empty()) d.file = slot.name;
    add_trace("scenario", fmt::format("{} stopped: {}", slot.name, d.to_string()));
    slot.running = false;
    slot.error = d;
    diagnostics.push_back(std::move(d));
  }

  std::uint64_t compute_digest() {
    scratch.clear();
    scratch.raw(std::string_view("sortie-scenario-v1\0", 19));
    scratch.u32(next_spawn);
    scratch.u32(static_cast<std::uint32_t>(parts.size()));
    for (const PartSlot& p : parts) {
      scratch.str(p.name);
      scratch.boolean(p.running);
      const std::size_t at = scratch.placeholder_u32();
      p.part->encode(scratch);
      scratch.patch_u32(at, static_cast<std::uint32_t>(scratch.size() - at - 4));
    }
    return core::hash64(scratch.view());
  }

  core::Status submit_digest() {
    const std::uint64_t d = compute_digest();
    if (digest_submitted && d == digest) return {};
    digest = d;
    digest_submitted = true;
    return send(world::make_command(world.clock().tick, DigestCommand{d}));
  }

  core::Status run_parts(bool starting) {
    take_inputs();
    ScenarioContext ctx = context();
    for (PartSlot& slot : parts) {
      if (!slot.running) continue;
      core::Status st = starting && !slot.started ? slot.part->start(ctx) : slot.part->step(ctx);
      slot.started = true;
      if (!st) stop(slot, std::move(st).error());
    }
    ++steps;
    return submit_digest();
  }
};

ScenarioRuntime::ScenarioRuntime(world::World& world, MissionFacts facts, RuntimeOptions options)
    : impl_(std::make_unique<Impl>(world, std::move(facts), std::move(options))) {}

ScenarioRuntime::~ScenarioRuntime() {
  impl_->inbox->open = false;
}

void ScenarioRuntime::add(std::unique_ptr<ScenarioPart> part) {
  PartSlot slot;
  slot.name = part->name();
  slot.part = std::move(part);
  impl_->parts.push_back(std::move(slot));
}

std::size_t ScenarioRuntime::part_count() const {
  return impl_->parts.size();
}

core::Status ScenarioRuntime::start() {
  Impl& m = *impl_;
  if (m.started)
    return core::fail(core::Diagnostic::error("scenario.runtime.started", "the scenario runtime already started"));
  m.started = true;
  m.subscribe();
  m.known = m.registered();
  SORTIE_CHECK(m.send(world::make_command(m.world.clock().tick, StartCommand{m.facts.mission})));
  SORTIE_CHECK(m.run_parts(true));  // start() of every part
  return m.run_parts(false);        // and the first step, in the same tick
}

core::Status ScenarioRuntime::step() {
  if (!impl_->started) return start();
  return impl_->run_parts(false);
}

bool ScenarioRuntime::started() const {
  return impl_->started;
}

void ScenarioRuntime::player_joined(world::PlayerId player) {
  impl_->players.push_back(PlayerChange{player, true});
}

void ScenarioRuntime::player_left(world::PlayerId player) {
  impl_->players.push_back(PlayerChange{player, false});
}

std::vector<PartStatus> ScenarioRuntime::parts() const {
  std::vector<PartStatus> out;
  for (const PartSlot& p : impl_->parts) out.push_back(PartStatus{p.name, p.running, p.error});
  return out;
}

const std::vector<core::Diagnostic>& ScenarioRuntime::diagnostics() const {
  return impl_->diagnostics;
}

std::uint64_t ScenarioRuntime::warnings_dropped() const {
  return impl_->warnings_dropped;
}

void ScenarioPart::image(nlohmann::json& out) const {
  world::StateWriter w;
  encode(w);
  world::encoding_image(w, out);
}

void ScenarioRuntime::image(nlohmann::json& out) const {
  const Impl& m = *impl_;
  core::Json parts = core::Json::array();
  for (const PartSlot& p : m.parts) {
    core::Json part{{"name", p.name}, {"running", p.running}};
    p.part->image(part["state"]);
    parts.push_back(std::move(part));
  }
  core::Json known = core::Json::array();
  for (const world::ObjectId& id : m.known) known.push_back(core::hash_hex(id.raw()));
  core::Json messages = core::Json::array();
  for (const TraceLine& l : m.messages) messages.push_back(core::Json::array({l.tick, core::bytes_text_json(l.text)}));
  out =
      core::Json{{"parts", std::move(parts)},          {"next_spawn", m.next_spawn}, {"steps", m.steps},
                 {"digest", core::hash_hex(m.digest)}, {"known", std::move(known)},  {"messages", std::move(messages)},
                 {"message_count", m.message_count}};
}

std::uint64_t ScenarioRuntime::digest() const {
  return impl_->digest;
}

std::uint64_t ScenarioRuntime::steps() const {
  return impl_->steps;
}

const ScenarioState* ScenarioRuntime::state() const {
  return find_scenario_state(impl_->world);
}

const std::vector<TraceLine>& ScenarioRuntime::messages() const {
  return impl_->messages;
}

std::uint64_t ScenarioRuntime::message_count() const {
  return impl_->message_count;
}

bool ScenarioRuntime::trace_on(std::string_view channel) const {
  return impl_->channel_on(channel);
}

const std::vector<TraceLine>& ScenarioRuntime::trace_lines() const {
  return impl_->trace->lines();
}

core::Status ScenarioRuntime::write_traces() const {
  return impl_->trace->save();
}

}  // namespace sortie::scenario
