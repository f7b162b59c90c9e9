// Prototype files and `$Parent` inheritance (spec/fomap.md §13).
#include "sortie/fomap/protos.hpp"

#include <algorithm>
#include <functional>
#include <set>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/map_model.hpp"

namespace sortie::fomap {
namespace {

using core::Diagnostic;

std::vector<std::string> split_spaces(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > b) out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

std::string bracketed(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 2);
  out.push_back('[');
  out.append(name);
  out.push_back(']');
  return out;
}

}  // namespace

bool is_proto_file_extension(std::string_view ext) {
  return ext == "fopro" || ext == "focr" || ext == "foitem" || ext == "foloc" || ext == "fomap";
}

core::Diagnostics ProtoCatalog::add_text(std::string text, std::string_view file_path) {
  core::Diagnostics out;
  const ConfigFile cfg = parse_config(std::move(text), {.skip_nested_sections = true});
  const std::string stem = file_stem(file_path);
  for (std::size_t i = 1; i < cfg.sections().size(); ++i) {
    const ConfigSection& s = cfg.sections()[i];
    if (s.name.size() <= 5 || s.name.substr(0, 5) != "Proto") {
      out.push_back(Diagnostic::warning("fomap.proto.section", "not a [Proto<Type>] section; skipped")
                        .of(std::string(file_path))
                        .in("line " + std::to_string(s.header_line))
                        .expect("[Proto<Type>]", bracketed(s.name)));
      continue;
    }
    Proto p;
    p.type = std::string(s.name.substr(5));
    p.file = std::string(file_path);
    p.line = s.header_line;
    const ConfigEntry* name = s.find("$Name");
    p.name = name ? std::string(name->value) : stem;
    if (const ConfigEntry* parent = s.find("$Parent")) p.parents = split_spaces(parent->value);
    for (const auto& e : s.entries) {
      if (e.key.empty()) continue;
      if (e.key.front() == '$') {
        if (e.key.substr(0, 5) == "$Text") p.texts.emplace(std::string(e.key), std::string(e.value));
        continue;
      }
      p.own.emplace(std::string(e.key), std::string(e.value));
    }
    std::string key = p.type + "." + p.name;
    auto [it, inserted] = protos_.try_emplace(key, std::move(p));
    if (inserted) index(key, &it->second);
    if (!inserted) {
      out.push_back(
          Diagnostic::warning("fomap.proto.duplicate", "prototype declared twice; the first one is kept")
              .of(std::string(file_path))
              .in("line " + std::to_string(s.header_line))
              .expect("a unique " + key, "also in " + it->second.file + ":" + std::to_string(it->second.line)));
    }
  }
  return out;
}

core::Diagnostics ProtoCatalog::add_file(const std::filesystem::path& path) {
  auto text = core::read_text_file(path);
  if (!text) return {text.error()};
  return add_text(std::move(*text), path.generic_string());
}

core::Diagnostics ProtoCatalog::resolve(const PropertyCatalog& catalog) {
  core::Diagnostics out;
  std::set<std::string> visiting;
  std::function<bool(Proto&)> resolve_one = [&](Proto& p) -> bool {
    if (p.resolved_ok) return true;
    const std::string key = p.type + "." + p.name;
    if (!visiting.insert(key).second) {
      out.push_back(Diagnostic::error("fomap.proto.parent_cycle", "prototype inherits from itself through $Parent")
                        .of(p.file)
                        .in("line " + std::to_string(p.line))
                        .expect("an acyclic $Parent chain", key));
      return false;
    }
    std::map<std::string, std::string, std::less<>> merged;
    bool ok = true;
    for (const auto& parent_name : p.parents) {
      std::string name = parent_name;
      if (auto m = catalog.migrate_proto(p.type, name)) name = std::string(*m);
      auto it = protos_.find(p.type + "." + name);
      if (it == protos_.end()) {
        bool other_type = false;
        for (const auto& [k, q] : protos_)
          if (q.name == name) other_type = true;
        out.push_back(Diagnostic::error(
                          other_type ? "fomap.proto.parent_cross_type" : "fomap.proto.parent_missing",
                          other_type ? "$Parent names a prototype of another type" : "$Parent names no known prototype")
                          .of(p.file)
                          .in("line " + std::to_string(p.line))
                          .expect("a " + p.type + " prototype", name));
        ok = false;
        continue;
      }
      if (!resolve_one(it->second)) ok = false;
      for (const auto& [k, v] : it->second.resolved) merged[k] = v;
    }
    for (const auto& [k, v] : p.own) merged[std::string(catalog.migrate_property(p.type, k))] = v;
    p.resolved = std::move(merged);
    p.resolved_ok = true;
    visiting.erase(key);
    return ok;
  };
  for (auto& [key, p] : protos_) resolve_one(p);
  return out;
}

namespace {

// True when `key` is exactly "<type>.<name>" of the proto.
bool has_key(const Proto& p, std::string_view key) {
  return key.size() == p.type.size() + 1 + p.name.size() && key.substr(0, p.type.size()) == p.type &&
         key[p.type.size()] == '.' && key.substr(p.type.size() + 1) == p.name;
}

}  // namespace

void ProtoCatalog::place(std::uint64_t hash, const Proto* proto) {
  const std::size_t mask = index_.size() - 1;
  std::size_t i = hash & mask;
  while (index_[i].second) i = (i + 1) & mask;
  index_[i] = {hash, proto};
  ++indexed_;
}

void ProtoCatalog::index(std::string_view key, const Proto* proto) {
  if ((indexed_ + 1) * 2 > index_.size()) {  // keep the load at most 1/2
    auto old = std::move(index_);
    index_.assign(std::max<std::size_t>(64, old.size() * 2), {0, nullptr});
    indexed_ = 0;
    for (const auto& [hash, p] : old)
      if (p) place(hash, p);
  }
  place(string_hash(key), proto);
}

const Proto* ProtoCatalog::find(std::string_view type, std::string_view name) const {
  if (index_.empty()) return nullptr;
  thread_local std::string key;
  key.clear();
  key.append(type).append(1, '.').append(name);
  const std::uint64_t hash = string_hash(key);
  const std::size_t mask = index_.size() - 1;
  for (std::size_t i = hash & mask; index_[i].second; i = (i + 1) & mask)
    if (index_[i].first == hash && has_key(*index_[i].second, key)) return index_[i].second;
  return nullptr;
}

}  // namespace sortie::fomap
