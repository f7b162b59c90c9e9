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

// Encodes a parsed value: plain values into `pod`, complex ones into `complex_out`.
void store_value(const Registrar& reg, const Registrar::Slot& slot, const PropertyValue& value, core::Bytes& pod,
                 core::Bytes& complex_out, std::vector<std::string>* strings) {
  const PropertyType& t = slot.info->type;
  if (slot.plain) {
    const auto& p = reg.layout().plain()[slot.index];
    std::uint8_t* out = pod.data() + p.offset;
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
  complex_out = w.take();
}

// What a key resolves to on one registrar (memoized per bake: keys repeat a lot).
struct KeyTarget {
  const PropertyInfo* info = nullptr;   // nullptr: unknown property
  const Registrar::Slot* slot = nullptr;
  bool skip = false;                    // other side only, or no storage
};

class KeyResolver {
 public:
  KeyResolver(const Registrar& reg, const PropertyCatalog& catalog) : reg_(reg), catalog_(catalog) {}
  const KeyTarget& resolve(std::string_view key) {
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    KeyTarget t;
    t.info = catalog_.find(reg_.entity(), key);
    if (t.info) {
      t.skip = reg_.other_side_only(t.info->name);
      t.slot = reg_.find(t.info->name);
      if (!t.slot && t.info->authorable) t.skip = true;
    }
    return memo_.emplace(std::string(key), t).first->second;
  }

 private:
  const Registrar& reg_;
  const PropertyCatalog& catalog_;
  std::map<std::string, KeyTarget, std::less<>> memo_;
};

// One property value applied to an entity: which complex slot (if any) now holds new bytes,
// and the hash strings it contributed.
struct Applied {
  const PropertyInfo* info = nullptr;
  std::size_t complex_index = SIZE_MAX;
  core::Bytes complex;
  std::vector<std::string> strings;
};

// Applies key/value pairs; `label` is only called to describe an error.
template <class Label>
void apply_keys(KeyResolver& resolver, const Registrar& reg, const PropertyCatalog& catalog,
                const std::vector<std::pair<std::string_view, std::string_view>>& keys, core::Bytes& pod,
                std::vector<Applied>& applied, core::Diagnostics& errors, const Label& label, const std::string& file) {
  for (const auto& [key, text] : keys) {
    if (key.empty() || key.front() == '$' || key.front() == '_') continue;
    const KeyTarget& t = resolver.resolve(key);
    if (!t.info) {
      errors.push_back(Diagnostic::error("fomap.bake.property_unknown",
                                         fmt::format("unknown {} property `{}`", reg.entity(), key))
                           .of(file)
                           .in(label()));
      continue;
    }
    if (t.skip) continue;
    if (!t.info->authorable) {
      errors.push_back(Diagnostic::error("fomap.bake.property_not_authorable",
                                         fmt::format("{} property `{}` is {} and cannot be authored", reg.entity(),
                                                     t.info->name, t.info->excluded_reason))
                           .of(file)
                           .in(label()));
      continue;
    }
    if (t.info->type.container == Container::single && t.slot->plain) {
      // Fast path: one scalar straight into the POD image.
      auto sv = parse_single_value(t.info->type, text, catalog);
      if (sv) {
        Applied a;
        a.info = t.info;
        const PropertyType& ty = t.info->type;
        const auto& plain = reg.layout().plain()[t.slot->index];
        std::uint8_t* out = pod.data() + plain.offset;
        std::memset(out, 0, t.slot->size);
        const Fields f = fields_of(ty, ty.kind, *sv, ty.enum_name, &a.strings);
        for (std::uint32_t i = 0; i < f.count; ++i) put_le(out + i * f.size, f.v[i], f.size);
        applied.push_back(std::move(a));
        continue;
      }
    }
    auto value = parse_value(t.info->type, text, catalog);
    if (!value) {
      Diagnostic d = value.error();
      d.code = d.code.empty() ? "fomap.bake.value" : d.code;
      d.file = file;
      d.field = fmt::format("{}.{}", label(), t.info->name);
      errors.push_back(std::move(d));
      continue;
    }
    Applied a;
    a.info = t.info;
    if (!t.slot->plain) a.complex_index = t.slot->index;
    store_value(reg, *t.slot, *value, pod, a.complex, &a.strings);
    applied.push_back(std::move(a));
  }
}

// Per-proto cache of the stored state on one side, plus which of its strings were already
// put into this map's dictionary.
struct ProtoState {
  PropertyData data;
  std::vector<Applied> props;  // the proto's own values, by property
  std::vector<bool> strings_added;
};

class ProtoStates {
 public:
  ProtoStates(const Registrar& reg, const PropertyCatalog& catalog) : reg_(reg), catalog_(catalog), resolver_(reg, catalog) {}
  KeyResolver& resolver() { return resolver_; }
  ProtoState& get(const Proto& proto, core::Diagnostics& errors) {
    auto it = cache_.find(&proto);
    if (it != cache_.end()) return it->second;  // its errors were reported once
    ProtoState s;
    s.data.pod.assign(reg_.layout().pod_size(), 0);
    s.data.complex.resize(reg_.layout().complex_count());
    std::vector<std::pair<std::string_view, std::string_view>> keys;
    keys.reserve(proto.resolved.size());
    for (const auto& [k, v] : proto.resolved) keys.emplace_back(k, v);
    apply_keys(resolver_, reg_, catalog_, keys, s.data.pod, s.props, errors,
               [&] { return fmt::format("Proto{} {}", proto.type, proto.name); }, proto.file);
    for (auto& a : s.props)
      if (a.complex_index != SIZE_MAX) s.data.complex[a.complex_index] = a.complex;
    s.strings_added.assign(s.props.size(), false);
    return cache_.emplace(&proto, std::move(s)).first->second;
  }

 private:
  const Registrar& reg_;
  const PropertyCatalog& catalog_;
  KeyResolver resolver_;
  std::unordered_map<const Proto*, ProtoState> cache_;
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

  std::vector<std::pair<std::string_view, std::string_view>> keys;
  std::vector<Applied> applied;
  std::vector<core::ByteView> complex_view;
  core::Bytes pod;
  auto bake_one = [&](const Placement& p, const Registrar& reg, ProtoStates& cache, const Proto& proto,
                      std::vector<std::string>& strings) -> std::optional<MapRecord> {
    core::Diagnostics errs;
    ProtoState& base = cache.get(proto, errs);
    keys.clear();
    for (const ConfigEntry* e : p.properties(container)) keys.emplace_back(e->key, e->value);
    applied.clear();
    pod.assign(base.data.pod.begin(), base.data.pod.end());
    apply_keys(cache.resolver(), reg, catalog, keys, pod, applied, errs, [&] { return placement_label(p); }, file);
    if (!errs.empty()) {
      out.errors.insert(out.errors.end(), errs.begin(), errs.end());
      return std::nullopt;
    }
    complex_view.assign(base.data.complex.begin(), base.data.complex.end());
    for (Applied& a : applied) {
      if (a.complex_index != SIZE_MAX) complex_view[a.complex_index] = a.complex;
      strings.insert(strings.end(), std::make_move_iterator(a.strings.begin()), std::make_move_iterator(a.strings.end()));
    }
    // The proto's strings for every property this placement did not override (once per map).
    for (std::size_t i = 0; i < base.props.size(); ++i) {
      if (base.strings_added[i] || base.props[i].strings.empty()) continue;
      const bool overridden = std::any_of(applied.begin(), applied.end(), [&](const Applied& a) { return a.info == base.props[i].info; });
      if (overridden) continue;
      base.strings_added[i] = true;
      strings.insert(strings.end(), base.props[i].strings.begin(), base.props[i].strings.end());
    }
    return MapRecord{p.id, string_hash(proto.name), write_property_blob(pod, complex_view)};
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
