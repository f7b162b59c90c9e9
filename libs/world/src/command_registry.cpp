#include "sortie/world/command_registry.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sortie/world/builtin_commands.hpp"
#include "sortie/world/limits.hpp"

namespace sortie::world {

using core::Diagnostic;
using core::fail;

namespace {

bool valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxCommandKindName) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

Diagnostic registry_error(std::string message, const CommandKindInfo& info) {
  return Diagnostic::error("world.command.registry", std::move(message))
      .in(fmt::format("{} ({})", info.name, info.wire_id));
}

}  // namespace

core::Status CommandRegistry::register_kind(CommandKindInfo info) {
  if (info.wire_id == 0) return fail(registry_error("wire id 0 is never a command kind", info));
  if (!valid_name(info.name)) {
    return fail(registry_error("malformed command kind name", info)
                    .expect(fmt::format("1..{} characters of a-z 0-9 _ .", kMaxCommandKindName), info.name));
  }
  if (!info.check || !info.apply || !info.to_json || !info.from_json) {
    return fail(registry_error("a command kind needs check, apply, to_json and from_json", info));
  }
  if (const CommandKindInfo* taken = find(info.wire_id)) {
    return fail(registry_error("wire id already registered", info).expect("a free wire id", taken->name));
  }
  if (const CommandKindInfo* taken = find(info.name)) {
    return fail(registry_error("name already registered", info).expect("a free name", std::to_string(taken->wire_id)));
  }
  const CommandKindId id = info.wire_id;
  by_id_.emplace(id, std::move(info));
  return {};
}

const CommandKindInfo* CommandRegistry::find(CommandKindId wire_id) const {
  auto it = by_id_.find(wire_id);
  return it == by_id_.end() ? nullptr : &it->second;
}

const CommandKindInfo* CommandRegistry::find(std::string_view name) const {
  for (const auto& [id, info] : by_id_) {
    if (info.name == name) return &info;
  }
  return nullptr;
}

std::vector<const CommandKindInfo*> CommandRegistry::kinds() const {
  std::vector<const CommandKindInfo*> out;
  out.reserve(by_id_.size());
  for (const auto& [id, info] : by_id_) out.push_back(&info);
  return out;
}

std::string CommandRegistry::describe() const {
  std::string out;
  for (const auto& [id, info] : by_id_) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {}", id, info.name);
  }
  return out.empty() ? "no kinds" : out;
}

CommandRegistry CommandRegistry::standard() {
  CommandRegistry registry;
  auto status = register_builtin_commands(registry);
  // Our own fixed kinds: a failure is a programming error, never bad input.
  if (!status) throw std::logic_error("standard command registry: " + status.error().to_string());
  return registry;
}

const std::shared_ptr<const CommandRegistry>& standard_command_registry() {
  static const std::shared_ptr<const CommandRegistry> registry =
      std::make_shared<const CommandRegistry>(CommandRegistry::standard());
  return registry;
}

}  // namespace sortie::world
