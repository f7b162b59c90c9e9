#include "sortie/world/component.hpp"

#include <algorithm>

#include "sortie/core/json.hpp"

namespace sortie::world {

void ComponentStore::insert(Entry entry) {
  auto pos = std::lower_bound(entries_.begin(), entries_.end(), entry.name,
                              [](const Entry& e, std::string_view name) { return e.name < name; });
  entries_.insert(pos, std::move(entry));
}

bool ComponentStore::erase_type(const void* type) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.type == type; });
  if (it == entries_.end()) return false;
  entries_.erase(it);
  return true;
}

void ComponentStore::copy_from(const ComponentStore& other) {
  std::vector<Entry> copy;
  copy.reserve(other.entries_.size());
  for (const Entry& e : other.entries_) copy.push_back(Entry{e.type, e.name, e.value->clone()});
  entries_ = std::move(copy);
}

std::vector<std::string_view> ComponentStore::names() const {
  std::vector<std::string_view> out;
  out.reserve(entries_.size());
  for (const Entry& e : entries_) out.push_back(e.name);
  return out;
}

void ComponentStore::encode(StateWriter& out) const {
  out.u32(static_cast<std::uint32_t>(entries_.size()));
  for (const Entry& e : entries_) {
    out.str(e.name);
    const std::size_t at = out.placeholder_u32();
    e.value->encode(out);
    out.patch_u32(at, static_cast<std::uint32_t>(out.size() - at - 4));
  }
}

void ComponentStore::image(nlohmann::json& out) const {
  out = core::Json::object();
  for (const Entry& e : entries_) e.value->image(out[std::string(e.name)]);
}

void encoding_image(const StateWriter& encoded, nlohmann::json& out) {
  out = core::Json{{"encoding", core::to_hex(encoded.view())}};
}

}  // namespace sortie::world
