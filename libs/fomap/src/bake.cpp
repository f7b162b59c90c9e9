// MapBaker: placements -> server/client map blobs (spec/fomap.md §10, contract seeds/004).
#include "sortie/fomap/bake.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <set>
#include <unordered_map>

#include "bake_internal.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/hash.hpp"

namespace sortie::fomap {
namespace {

using namespace bake_detail;
using core::Diagnostic;

// Little-endian bytes of one field value.
void put_le(std::uint8_t* out, std::uint64_t v, std::uint32_t size) {
  for (std::uint32_t i = 0; i < size; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Raw little-endian fields of one scalar (value types give several fields).
struct Fields {
  std::uint64_t v[4]{};
  std::uint32_t count = 1;
  std::uint32_t size = 0;  // bytes per field
};

Fields fields_of(const PropertyType& type, ScalarKind kind, const ScalarValue& s, std::string_view enum_name,
                 std::vector<std::string>* strings) {
  Fields f;
  f.size = field_size(kind, enum_name);
  switch (kind) {
    case ScalarKind::float32: f.v[0] = std::bit_cast<std::uint32_t>(static_cast<float>(s.real)); break;
    case ScalarKind::float64: f.v[0] = std::bit_cast<std::uint64_t>(s.real); break;
    case ScalarKind::hstring:
    case ScalarKind::proto_ref:
      f.v[0] = string_hash(s.text);
      if (strings && !s.text.empty()) strings->push_back(s.text);
      break;
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
    case ScalarKind::ipos:
    case ScalarKind::isize:
    case ScalarKind::irect:
      f.count = static_cast<std::uint32_t>(type.fields());
      if (kind == ScalarKind::irect) f.count = 4;
      for (std::uint32_t i = 0; i < f.count; ++i) f.v[i] = static_cast<std::uint64_t>(s.ints[i]);
      break;
    default: f.v[0] = static_cast<std::uint64_t>(s.ints[0]); break;
  }
  return f;
}

bool string_like(ScalarKind k) { return k == ScalarKind::string || k == ScalarKind::any || k == ScalarKind::unknown; }

void write_element(ComplexWriter& w, const PropertyType& type, ScalarKind kind, const ScalarValue& s,
                   std::string_view enum_name, std::vector<std::string>* strings) {
  if (string_like(kind)) {
    w.string(s.text);
    return;
  }
  const Fields f = fields_of(type, kind, s, enum_name, strings);
  std::uint8_t buf[8];
  for (std::uint32_t i = 0; i < f.count; ++i) {
    put_le(buf, f.v[i], f.size);
    w.scalar(core::ByteView(buf, f.size));
  }
}

// Encodes a parsed value into the entity's stored state.
void store_value(const Registrar& reg, const Registrar::Slot& slot, const PropertyValue& value, PropertyData& data,
                 std::vector<std::string>* strings) {
  const PropertyType& t = slot.info->type;
  if (slot.plain) {
    const auto& p = reg.layout().plain()[slot.index];
    std::uint8_t* out = data.pod.data() + p.offset;
    std::memset(out, 0, slot.size);
    if (value.elements.empty()) return;
    const Fields f = fields_of(t, t.kind, value.elements.front(), t.enum_name, strings);
    for (std::uint32_t i = 0; i < f.count; ++i) put_le(out + i * f.size, f.v[i], f.size);
    return;
  }
  ComplexWriter w;
  if (t.container == Container::single) {
    if (!value.elements.empty()) {
      const ScalarValue& s = value.elements.front();
      if (string_like(t.kind)) w.raw(core::as_bytes(s.text));  // a single string: bytes, no length
      else write_element(w, t, t.kind, s, t.enum_name, strings);
    }
  } else if (t.container == Container::array) {
    if (string_like(t.kind)) w.u32(static_cast<std::uint32_t>(value.elements.size()));
    for (const auto& e : value.elements) write_element(w, t, t.kind, e, t.enum_name, strings);
  } else {
    const std::string key_enum = t.key_kind == ScalarKind::enumeration ? t.enum_name : std::string();
    for (const auto& [k, vals] : value.entries) {
      write_element(w, t, t.key_kind, k, key_enum, strings);
      if (t.dict_of_arrays) {
        w.u32(static_cast<std::uint32_t>(vals.size()));
        for (const auto& v : vals) write_element(w, t, t.kind, v, t.enum_name, strings);
      } else if (!vals.empty()) {
        write_element(w, t, t.kind, vals.front(), t.enum_name, strings);
      }
    }
  }
  data.complex[slot.index] = w.take();
}

// Stored state of an entity plus the hash strings of each property it set.
struct EntityState {
  PropertyData data;
  std::map<std::string, std::vector<std::string>, std::less<>> strings;  // property -> strings
};

EntityState empty_state(const Registrar& reg) {
  EntityState s;
  s.data.pod.assign(reg.layout().pod_size(), 0);
  s.data.complex.resize(reg.layout().complex_count());
  return s;
}

// Applies key/value pairs (already byte-sorted) to a state. Errors are appended.
void apply_keys(const Registrar& reg, const PropertyCatalog& catalog,
                const std::vector<std::pair<std::string_view, std::string_view>>& keys, EntityState& state,
                core::Diagnostics& errors, const std::string& where, const std::string& file) {
  for (const auto& [key, text] : keys) {
    if (key.empty() || key.front() == '$' || key.front() == '_') continue;
    const PropertyInfo* info = catalog.find(reg.entity(), key);
    if (!info) {
      errors.push_back(Diagnostic::error("fomap.bake.property_unknown",
                                         fmt::format("unknown {} property `{}`", reg.entity(), key))
                           .of(file)
                           .in(where));
      continue;
    }
    if (reg.other_side_only(info->name)) continue;
    if (!info->authorable) {
      errors.push_back(Diagnostic::error("fomap.bake.property_not_authorable",
                                         fmt::format("{} property `{}` is {} and cannot be authored", reg.entity(),
                                                     info->name, info->excluded_reason))
                           .of(file)
                           .in(where));
      continue;
    }
    const Registrar::Slot* slot = reg.find(info->name);
    if (!slot) continue;
    auto value = parse_value(info->type, text, catalog);
    if (!value) {
      Diagnostic d = value.error();
      d.code = d.code.empty() ? "fomap.bake.value" : d.code;
      d.file = file;
      d.field = fmt::format("{}.{}", where, info->name);
      errors.push_back(std::move(d));
      continue;
    }
    std::vector<std::string> strings;
    store_value(reg, *slot, *value, state.data, &strings);
    state.strings[info->name] = std::move(strings);
  }
}

// Per-proto cache of the stored state on one side.
class ProtoStates {
 public:
  ProtoStates(const Registrar& reg, const PropertyCatalog& catalog) : reg_(reg), catalog_(catalog) {}
  const EntityState& get(const Proto& proto, core::Diagnostics& errors) {
    auto it = cache_.find(&proto);
    if (it != cache_.end()) return it->second.first;  // its errors were reported once
    EntityState s = empty_state(reg_);
    std::vector<std::pair<std::string_view, std::string_view>> keys;
    keys.reserve(proto.resolved.size());
    for (const auto& [k, v] : proto.resolved) keys.emplace_back(k, v);
    core::Diagnostics errs;
    apply_keys(reg_, catalog_, keys, s, errs, fmt::format("Proto{} {}", proto.type, proto.name), proto.file);
    errors.insert(errors.end(), errs.begin(), errs.end());
    auto [pos, ok] = cache_.emplace(&proto, std::make_pair(std::move(s), std::move(errs)));
    return pos->second.first;
  }

 private:
  const Registrar& reg_;
  const PropertyCatalog& catalog_;
  std::unordered_map<const Proto*, std::pair<EntityState, core::Diagnostics>> cache_;
};

std::string placement_label(const Placement& p) {
  return fmt::format("{} $Id={} $Proto={} (line {})", to_string(p.kind), p.id, p.proto, p.line);
}

// Proto Static / Hidden flags (the bake decides client visibility from the proto, §6).
bool proto_flag(const Proto& proto, std::string_view name, const PropertyCatalog& catalog) {
  auto it = proto.resolved.find(name);
  if (it == proto.resolved.end()) return false;
  const PropertyInfo* info = catalog.find("Item", name);
  if (!info) return false;
  auto v = parse_value(info->type, it->second, catalog);
  return v && !v->elements.empty() && v->elements.front().ints[0] != 0;
}

}  // namespace

core::Json BakedMap::summary_json() const {
  return core::Json{{"map", name},
                    {"source", source},
                    {"server", {{"file", server_blob_name(name)},
                                {"dictionary", server.dictionary.size()},
                                {"critters", server.critters.size()},
                                {"items", server.items.size()}}},
                    {"client", {{"file", client_blob_name(name)},
                                {"dictionary", client.dictionary.size()},
                                {"items", client.items.size()}}},
                    {"hidden_static_items", hidden_static_items}};
}

BakeOutcome bake_map(const MapContainer& container, const MapDefinition& map, const Project& project,
                     const BakeRegistrars& regs, const BakeOptions& options) {
  BakeOutcome out;
  out.name = map.name;
  const PropertyCatalog& catalog = project.properties;
  const std::string& file = container.path();
  for (const auto& e : container.structure_errors())
    out.errors.push_back(Diagnostic::error(e.code, e.message).of(file).in(fmt::format("line {}: [{}]", e.line, e.section)));
  if (!out.errors.empty()) return out;

  ProtoStates critter_server(regs.critter_server, catalog);
  ProtoStates item_server(regs.item_server, catalog);
  ProtoStates item_client(regs.item_client, catalog);

  BakedMap baked;
  baked.name = map.name;
  baked.source = file;
  std::vector<std::string> server_strings;
  std::vector<std::string> client_strings;

  auto bake_one = [&](const Placement& p, const Registrar& reg, ProtoStates& cache, const Proto& proto,
                      std::vector<std::string>& strings) -> std::optional<MapRecord> {
    core::Diagnostics errs;
    EntityState state = cache.get(proto, errs);
    std::vector<std::pair<std::string_view, std::string_view>> keys;
    for (const ConfigEntry* e : p.properties(container)) keys.emplace_back(e->key, e->value);
    apply_keys(reg, catalog, keys, state, errs, placement_label(p), file);
    if (!errs.empty()) {
      out.errors.insert(out.errors.end(), errs.begin(), errs.end());
      return std::nullopt;
    }
    for (auto& [name, s] : state.strings) strings.insert(strings.end(), s.begin(), s.end());
    return MapRecord{p.id, string_hash(proto.name), write_property_blob(state.data)};
  };

  auto resolve = [&](const Placement& p) -> const Proto* {
    if (!p.has_proto) {
      out.errors.push_back(Diagnostic::error("fomap.bake.proto_missing", "placement without $Proto")
                               .of(file)
                               .in(fmt::format("{} (line {})", to_string(p.kind), p.line)));
      return nullptr;
    }
    const Proto* proto = find_placement_proto(project, p);
    if (!proto)
      out.errors.push_back(Diagnostic::error("fomap.bake.proto_unknown", fmt::format("unknown {} proto `{}`",
                                                                                     to_string(p.kind), p.proto))
                               .of(file)
                               .in(placement_label(p)));
    return proto;
  };

  for (const Placement& p : map.critters) {
    const Proto* proto = resolve(p);
    if (!proto) continue;
    if (auto rec = bake_one(p, regs.critter_server, critter_server, *proto, server_strings))
      baked.server.critters.push_back(std::move(*rec));
  }
  for (const Placement& p : map.items) {
    const Proto* proto = resolve(p);
    if (!proto) continue;
    if (auto rec = bake_one(p, regs.item_server, item_server, *proto, server_strings))
      baked.server.items.push_back(std::move(*rec));
    if (!proto_flag(*proto, "Static", catalog)) continue;
    const bool hidden = proto_flag(*proto, "Hidden", catalog);
    auto rec = bake_one(p, regs.item_client, item_client, *proto, client_strings);
    if (!rec) continue;
    if (hidden) ++baked.hidden_static_items;
    else baked.client.items.push_back(std::move(*rec));
  }
  if (!out.errors.empty()) return out;
  if (options.client_dictionary_includes_server_strings)
    client_strings.insert(client_strings.end(), server_strings.begin(), server_strings.end());
  baked.server.dictionary = sort_dictionary(std::move(server_strings));
  baked.client.dictionary = sort_dictionary(std::move(client_strings));
  out.baked = std::move(baked);
  return out;
}

std::vector<BakeOutcome> bake_container(const MapContainer& container, const Project& project,
                                        const BakeRegistrars& registrars, const BakeOptions& options) {
  std::vector<BakeOutcome> outcomes;
  for (const MapDefinition& map : container.maps()) outcomes.push_back(bake_map(container, map, project, registrars, options));
  if (container.maps().empty() && !container.structure_errors().empty()) {
    BakeOutcome o;
    o.name = container.stem();
    for (const auto& e : container.structure_errors())
      o.errors.push_back(Diagnostic::error(e.code, e.message).of(container.path()).in(fmt::format("line {}", e.line)));
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

core::Status write_baked_map(const BakedMap& baked, const std::filesystem::path& dir) {
  const core::Bytes server = baked.server_bytes();
  const core::Bytes client = baked.client_bytes();
  SORTIE_CHECK(core::write_file_atomic(dir / server_blob_name(baked.name), server));
  SORTIE_CHECK(core::write_file_atomic(dir / client_blob_name(baked.name), client));
  return {};
}

std::vector<std::filesystem::path> find_map_containers(const std::vector<std::filesystem::path>& paths) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) {
      out.push_back(p);
      continue;
    }
    std::vector<fs::path> found;
    for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (!it->is_regular_file(ec)) continue;
      std::string ext = it->path().extension().string();
      if (ext.empty()) continue;
      ext.erase(0, 1);
      if (ext != "fomap" && !is_proto_file_extension(ext)) continue;
      if (ext != "fomap") {
        // Any proto container counts when it declares a [ProtoMap] anchor.
        auto text = core::read_text_file(it->path());
        if (!text || text->find("[ProtoMap]") == std::string::npos) continue;
      }
      found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace sortie::fomap
