#include "sortie/world/world.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "sortie/world/command_registry.hpp"

namespace sortie::world {

using core::Diagnostic;
using core::fail;

namespace {

Diagnostic stale(Handle h) {
  return Diagnostic::error("world.handle.stale", "handle does not name a live object")
      .expect("live object", fmt::format("slot {} generation {}", h.slot, h.generation));
}

Diagnostic shut_down_error() {
  return Diagnostic::error("world.shut_down", "the world is shut down; no new objects, events or commands");
}

}  // namespace

std::string ObjectId::to_string() const {
  return fmt::format("p{}:c{}:#{}", owner, class_id, index);
}

World::World(WorldConfig config)
    : config_(std::move(config)),
      commands_(config_.commands ? config_.commands : standard_command_registry()),
      sim_rng_(config_.seed, /*stream=*/1) {
  clock_.step_us = config_.step_us;
}

World::~World() = default;

// ---------------------------------------------------------------- identity and staging

ObjectId World::allocate_id(ClassId class_id) {
  std::uint32_t& next = next_index_[class_id];
  ObjectId id{config_.local_player, class_id, 0};
  do {
    id.index = ++next;
  } while (by_id_.count(id) != 0);
  return id;
}

core::Result<Handle> World::create_object(ObjectId id, std::string prototype_key, const core::Transform& transform) {
  if (shut_down_) return fail(shut_down_error());
  if (by_id_.count(id) != 0) {
    return fail(Diagnostic::error("world.id.duplicate", "an object with this id already exists")
                    .expect("unused object id", id.to_string()));
  }
  std::uint32_t slot_index = 0;
  if (!free_slots_.empty()) {
    slot_index = free_slots_.front();
    free_slots_.pop_front();
  } else {
    slot_index = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
    slots_.back().generation = 1;  // fresh slots start at 1; reused ones moved on at release
  }
  Slot& slot = slots_[slot_index];
  auto object = std::make_unique<WorldObject>();
  object->prototype_key = std::move(prototype_key);
  object->transform = transform;
  object->id_ = id;
  object->handle_ = Handle{slot_index, slot.generation};
  object->ownership_ = Ownership{id.owner, id.owner != config_.local_player};
  slot.object = std::move(object);
  by_id_.emplace(id, slot.object->handle_);
  ++live_count_;
  return slot.object->handle_;
}

core::Result<Handle> World::create_mirror_object(ObjectId id, std::string prototype_key,
                                                 const core::Transform& transform) {
  if (id.owner == config_.local_player) {
    return fail(Diagnostic::error("world.id.not_remote", "a mirror object must be owned by a remote player")
                    .expect(fmt::format("owner != {}", config_.local_player), id.to_string()));
  }
  return create_object(id, std::move(prototype_key), transform);
}

core::Result<Handle> World::create_local_object(ClassId class_id, std::string prototype_key,
                                                const core::Transform& transform) {
  if (shut_down_) return fail(shut_down_error());
  return create_object(allocate_id(class_id), std::move(prototype_key), transform);
}

void World::publish(WorldObject& object) {
  object.pending_add_ = false;
  object.registered_ = true;
  object.registration_sequence_ = next_registration_++;
  queue_.push_back(object.handle_);
  if (Trace* t = traced(*this, "queue"))
    t->write("queue", fmt::format("add {} '{}' seq {}", object.id_.to_string(), object.prototype_key,
                                  object.registration_sequence_));
}

core::Status World::add_to_game(Handle handle) {
  if (shut_down_) return fail(shut_down_error());
  WorldObject* object = find(handle);
  if (object == nullptr) return fail(stale(handle));
  if (object->registered_ || object->pending_add_) {
    return fail(Diagnostic::error("world.object.already_added", "object is already added to the game")
                    .expect("unregistered object", object->id_.to_string()));
  }
  if (in_calculation_) {
    object->pending_add_ = true;
    deferred_add_.push_back(handle);
  } else {
    publish(*object);
  }
  return {};
}

core::Result<Handle> World::add_new_object(ClassId class_id, std::string prototype_key,
                                           const core::Transform& transform) {
  SORTIE_TRY(Handle h, create_local_object(class_id, std::move(prototype_key), transform));
  SORTIE_CHECK(add_to_game(h));
  return h;
}

core::Status World::change_owner(Handle handle, PlayerId new_owner) {
  WorldObject* object = find(handle);
  if (object == nullptr) return fail(stale(handle));
  object->ownership_ = Ownership{new_owner, new_owner != config_.local_player};
  return {};
}

// ---------------------------------------------------------------- deletion

void World::release(Handle handle) {
  Slot& slot = slots_[handle.slot];
  by_id_.erase(slot.object->id_);
  slot.object.reset();
  --live_count_;
  if (slot.generation == UINT32_MAX) return;  // retired: the slot is never reused
  slot.generation += 1;                       // every handle to the old occupant is stale from now on
  free_slots_.push_back(handle.slot);
}

core::Status World::request_delete(Handle handle) {
  WorldObject* object = find(handle);
  if (object == nullptr) return fail(stale(handle));
  if (in_calculation_) {
    if (!object->pending_delete_) {
      object->pending_delete_ = true;
      deferred_delete_.push_back(handle);
    }
    return {};
  }
  if (object->registered_) {
    queue_.erase(std::find(queue_.begin(), queue_.end(), handle));
  }
  if (object->pending_add_) {
    deferred_add_.erase(std::find(deferred_add_.begin(), deferred_add_.end(), handle));
  }
  release(handle);
  return {};
}

// ---------------------------------------------------------------- lookup

WorldObject* World::find(Handle handle) {
  if (handle.slot >= slots_.size()) return nullptr;
  Slot& slot = slots_[handle.slot];
  if (!slot.object || slot.generation != handle.generation) return nullptr;
  return slot.object.get();
}

const WorldObject* World::find(Handle handle) const {
  return const_cast<World*>(this)->find(handle);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
}

core::Result<WorldObject*> World::object(Handle handle) {
  WorldObject* o = find(handle);
  if (o == nullptr) return fail(stale(handle));
  return o;
}

std::optional<Handle> World::lookup(ObjectId id) const {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return std::nullopt;
  return it->second;
}

WorldObject* World::find_live(ObjectId id) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return nullptr;
  WorldObject* o = find(it->second);
  return (o != nullptr && !o->pending_delete_) ? o : nullptr;
}

// ---------------------------------------------------------------- events

std::uint64_t World::post(Event event) {
  if (shut_down_) return 0;
  if (!event.target.is_null() && find(event.target) == nullptr) return 0;  // stale target
  event.sequence = next_event_++;
  events_.push_back(event);
  return event.sequence;
}

void World::on(EventType type, EventHandler handler) {
  handlers_[static_cast<std::uint32_t>(type)].push_back(std::move(handler));
}

void World::dispatch_events() {
  dispatched_.clear();
  const std::size_t count = events_.size();  // later posts wait for the next pass
  for (std::size_t i = 0; i < count; ++i) {
    const Event event = events_[i];  // copy: handlers may append to events_
    if (!event.target.is_null()) {
      const WorldObject* target = find(event.target);
      if (target == nullptr || target->pending_delete_) continue;
    }
    dispatched_.push_back(event);
    auto it = handlers_.find(static_cast<std::uint32_t>(event.type));
    if (it == handlers_.end()) continue;
    for (std::size_t k = 0; k < it->second.size(); ++k) {
      EventHandler handler = it->second[k];  // copy: a handler may register another one
      handler(*this, event);
      it = handlers_.find(static_cast<std::uint32_t>(event.type));
    }
  }
  events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(count));
}

// ---------------------------------------------------------------- commands

core::Status World::submit(Command command) {
  if (shut_down_) return fail(shut_down_error());
  if (command.tick < clock_.tick) {
    return fail(Diagnostic::error("world.command.late", "command is stamped for a tick that already ran")
                    .expect(fmt::format(">= {}", clock_.tick), std::to_string(command.tick)));
  }
  const CommandKindInfo* kind = commands_->find(command.kind);
  if (kind == nullptr) {
    return fail(Diagnostic::error("world.command.kind_unknown", "no command kind with this wire id is registered")
                    .expect(commands_->describe(), std::to_string(command.kind)));
  }
  core::ByteReader r(command.payload, "command payload");
  r.set_code_prefix("world.command.payload");
  r.set_field(kind->name);
  SORTIE_CHECK(kind->check(r));
  SORTIE_CHECK(r.require_end("command payload"));
  if (kind->validate) SORTIE_CHECK(kind->validate(*this, command.payload));
  log_.commands.push_back(command);
  pending_commands_.emplace(command.tick, std::move(command));
  return {};
}

const CommandRegistry& World::commands() const {
  return *commands_;
}

core::Status World::apply_command(const Command& command) {
  const CommandKindInfo* kind = commands_->find(command.kind);  // checked on submit
  SORTIE_TRY(CommandOutcome outcome, kind->apply(*this, command.payload));
  if (outcome == CommandOutcome::applied) {
    ++commands_applied_;
  } else {
    ++commands_skipped_;
  }
  if (traced(*this, "queue") != nullptr) {
    const std::string name(kind->name);
    traced_kinds_[outcome == CommandOutcome::applied ? name : name + " (skipped)"] += 1;
  }
  return {};
}

// ---------------------------------------------------------------- the calculation pass

void World::update_objects() {
  const std::size_t count = queue_.size();  // the queue does not change inside the pass
  for (std::size_t i = 0; i < count; ++i) {
    WorldObject& object = *slots_[queue_[i].slot].object;
    if (object.pending_delete_ || !object.active || !object.controller) continue;
    UpdateContext ctx{*this, object, clock_};
    object.controller->update(ctx);
  }
}

void World::apply_deferred() {
  if (!deferred_delete_.empty()) {
    std::erase_if(queue_, [&](const Handle& h) { return slots_[h.slot].object->pending_delete_; });
    for (const Handle& h : deferred_delete_) {
      WorldObject* object = find(h);
      if (object == nullptr) continue;
      if (object->pending_add_) object->pending_add_ = false;  // never published
      if (Trace* t = traced(*this, "queue")) t->write("queue", "delete " + object->id_.to_string() + " (deferred)");
      release(h);
    }
    deferred_delete_.clear();
  }
  for (const Handle& h : deferred_add_) {
    WorldObject* object = find(h);
    if (object == nullptr || !object->pending_add_) continue;
    publish(*object);
  }
  deferred_add_.clear();
}

core::Status World::tick() {
  if (shut_down_) return fail(shut_down_error());
  if (in_calculation_ || phase_ != Phase::idle) {
    return fail(Diagnostic::error("world.tick.reentrant", "tick() called from inside the calculation pass"));
  }
  // 1. prepare input/events
  phase_ = Phase::preparing;
  if (trace_) trace_->set_tick(clock_.tick);
  for (auto it = pending_commands_.begin(); it != pending_commands_.end() && it->first == clock_.tick;) {
    auto status = apply_command(it->second);
    it = pending_commands_.erase(it);
    if (!status) {
      phase_ = Phase::idle;
      return status;
    }
  }
  if (!traced_kinds_.empty()) trace_commands();
  clock_.dt_us = clock_.step_game_us();
  clock_.time_us += clock_.dt_us;
  // 2..5. calculation
  phase_ = Phase::calculating;
  in_calculation_ = true;
  dispatch_events();
  update_objects();
  in_calculation_ = false;
  // 6. deferred operations
  phase_ = Phase::applying_deferred;
  apply_deferred();
  // 7. maintenance
  phase_ = Phase::maintenance;
  advance_driven_maintenance_clock();
  run_due_maintenance();
  // 8. publish
  clock_.tick += 1;
  if (trace_) trace_->set_tick(clock_.tick);
  phase_ = Phase::idle;
  last_hash_ = compute_state_hash();
  if (config_.keep_hash_history) hash_history_.push_back(last_hash_);
  return {};
}

// ---------------------------------------------------------------- maintenance

void World::add_maintenance_task(std::string name, std::uint64_t period_us, MaintenanceTask task) {
  maintenance_.push_back(Maintenance{std::move(name), period_us, maintenance_clock_.time_us, std::move(task)});
}

void World::run_due_maintenance() {
  for (auto& m : maintenance_) {
    if (maintenance_clock_.time_us - m.last_us < m.period_us) continue;
    m.last_us = maintenance_clock_.time_us;
    if (Trace* t = traced(*this, "queue"))
      t->write("queue", fmt::format("maintenance {} at {:.3f} s", m.name,
                                    static_cast<double>(maintenance_clock_.time_us) / kMicrosPerSecond));
    m.task(*this);
  }
}

void World::advance_driven_maintenance_clock() {
  if (maintenance_drive_ == MaintenanceDrive::fixed_step) {
    maintenance_clock_.advance(clock_.step_us);
  } else if (maintenance_drive_ == MaintenanceDrive::real_time) {
    const auto now = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
    if (maintenance_real_us_ != 0 && now > maintenance_real_us_) maintenance_clock_.advance(now - maintenance_real_us_);
    maintenance_real_us_ = now;
  }
}

void World::run_all_maintenance() {
  for (auto& m : maintenance_) {
    m.last_us = maintenance_clock_.time_us;
    if (Trace* t = traced(*this, "queue")) t->write("queue", fmt::format("maintenance {} (final pass)", m.name));
    m.task(*this);
  }
}

void World::set_trace(std::shared_ptr<Trace> trace) {
  trace_ = std::move(trace);
  if (trace_) trace_->set_tick(clock_.tick);
}

void World::trace_commands() {
  std::string text = "commands";
  for (const auto& [kind, count] : traced_kinds_) text += fmt::format(" {} x{};", kind, count);
  traced_kinds_.clear();
  if (Trace* t = traced(*this, "queue")) t->write("queue", std::move(text));
}

// ---------------------------------------------------------------- presentation

SnapshotPtr World::snapshot() const {
  auto snap = std::make_shared<WorldSnapshot>();
  snap->tick = clock_.tick;
  snap->game_time_us = clock_.time_us;
  snap->paused = clock_.paused;
  snap->state_hash = last_hash_;
  snap->objects.reserve(queue_.size());
  for (const Handle& h : queue_) {
    const WorldObject& o = *slots_[h.slot].object;
    if (!o.visible) continue;
    snap->objects.push_back(ObjectView{h, o.id_, o.ownership_, o.prototype_key, o.transform, o.active});
  }
  snap->events = dispatched_;
  return snap;
}

// ---------------------------------------------------------------- shutdown

std::vector<Handle> World::shutdown() {
  std::vector<Handle> released;
  if (shut_down_) return released;
  shut_down_ = true;  // 1. no new events, objects or commands
  phase_ = Phase::shut_down;
  events_.clear();
  pending_commands_.clear();
  // 3. deferred operations: pending additions are dropped (the objects are released below
  // with everything else); pending deletions are covered by releasing every object.
  deferred_add_.clear();
  // 4. detach objects: queue order first, then objects that never reached the queue
  for (const Handle& h : queue_) {
    released.push_back(h);
    release(h);
  }
  queue_.clear();
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].object) {
      Handle h{static_cast<std::uint32_t>(i), slots_[i].generation};
      released.push_back(h);
      release(h);
    }
  }
  deferred_delete_.clear();
  return released;
}

}  // namespace sortie::world
