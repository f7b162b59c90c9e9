// MapBaker: placements -> server/client map blobs (spec/fomap.md §10, contract seeds/004).
#include "sortie/fomap/bake.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "bake_internal.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/hash.hpp"

namespace sortie::fomap {
namespace {

using namespace bake_detail;
using core::Diagnostic;

struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view k) const { return std::hash<std::string_view>{}(k); }
};

// What a key resolves to on one registrar.
struct KeyTarget {
  const PropertyInfo* info = nullptr;  // nullptr: unknown property
  const Registrar::Slot* slot = nullptr;
  bool skip = false;  // other side only, or no storage
};

// One property value applied to an entity: which complex slot (if any) now holds new bytes,
// and the hash strings it contributed.
struct Applied {
  const PropertyInfo* info = nullptr;
  std::string_view text;  // the value text it came from
  std::size_t complex_index = SIZE_MAX;
  core::Bytes complex;
  std::vector<std::string> strings;
};

// The values applied to one entity; entries are recycled between placements (their buffers too).
class AppliedList {
 public:
  Applied& add(const PropertyInfo* info, std::string_view text) {
    if (size_ == items_.size()) items_.emplace_back();
    Applied& a = items_[size_++];
    a.info = info;
    a.text = text;
    a.complex_index = SIZE_MAX;
    a.complex.clear();
    a.strings.clear();
    return a;
  }
  void clear() { size_ = 0; }
  void drop_last() { --size_; }
  // Frees the recycled entries past the end and spare capacity (for lists kept long).
  void shrink_to_fit() {
    items_.resize(size_);
    items_.shrink_to_fit();
  }
  // The value applied from this very text (same bytes in memory, not just equal ones).
  [[nodiscard]] const Applied* find(const PropertyInfo* info, std::string_view text) const {
    for (const Applied& a : items())
      if (a.info == info && a.text.data() == text.data() && a.text.size() == text.size()) return &a;
    return nullptr;
  }
  [[nodiscard]] std::span<Applied> items() { return {items_.data(), size_}; }
  [[nodiscard]] std::span<const Applied> items() const { return {items_.data(), size_}; }

 private:
  std::vector<Applied> items_;
  std::size_t size_ = 0;
};

// The stored state of one proto on one side, and what of it the current map has already seen.
struct ProtoState {
  core::Bytes pod;
  AppliedList props;                                            // the proto's own values, by property
  std::vector<std::pair<std::size_t, core::ByteView>> complex;  // props' complex values: (complex index, bytes)
  core::Diagnostics errors;                                     // reported in every map that uses the proto
  std::uint64_t name_hash = 0;
  std::uint32_t map = 0;  // serial of the last map that used the proto
  // Props with dictionary strings (indices into props) and, per entry, the serial of the last
  // map given its strings; `strings_left` of them are still to give in map `map`.
  std::vector<std::size_t> string_props;
  std::vector<std::uint32_t> strings_map;
  std::size_t strings_left = 0;
};

// Everything a session keeps for one registrar: key resolution and per-proto stored state.
class SideCache {
 public:
  SideCache(const Registrar& reg, const PropertyCatalog& catalog) : reg_(reg), catalog_(catalog) {}

  // Applies one key/value pair to `pod`; `label` is only called to describe an error. `shared`
  // holds complex encodings of the same placement's other side: a value's raw encoding does not
  // depend on the side, so the client pass of a static item reuses what the server pass made.
  template <class Label>
  void apply(std::string_view key, std::string_view text, core::Bytes& pod, AppliedList& applied,
             core::Diagnostics& errors, const Label& label, const std::string& file, AppliedList* shared = nullptr) {
    if (key.empty() || key.front() == '$' || key.front() == '_') return;
    const KeyTarget& t = resolve(key);
    if (!t.info) {
      errors.push_back(
          Diagnostic::error("fomap.bake.property_unknown", fmt::format("unknown {} property `{}`", reg_.entity(), key))
              .of(file)
              .in(label()));
      return;
    }
    if (t.skip) return;
    if (!t.info->authorable) {
      errors.push_back(Diagnostic::error("fomap.bake.property_not_authorable",
                                         fmt::format("{} property `{}` is {} and cannot be authored", reg_.entity(),
                                                     t.info->name, t.info->excluded_reason))
                           .of(file)
                           .in(label()));
      return;
    }
    if (t.info->type.container == Container::single && t.slot->plain) {
      // Fast path: one scalar straight into the POD image.
      if (auto sv = parse_single_value(t.info->type, text, catalog_)) {
        remember(pod, *t.slot);
        store_plain(reg_, *t.slot, &*sv, pod, &applied.add(t.info, text).strings);
        return;
      }
    }
    if (const Applied* done = shared && !t.slot->plain ? shared->find(t.info, text) : nullptr) {
      Applied& a = applied.add(t.info, text);
      a.complex_index = t.slot->index;
      a.complex = done->complex;
      a.strings = done->strings;
      return;
    }
    if (!t.slot->plain) {
      Applied& a = applied.add(t.info, text);
      if (store_int16_pairs(t.info->type, text, pairs_, a.complex)) {
        a.complex_index = t.slot->index;
        share(shared, a);
        return;
      }
      applied.drop_last();
    }
    auto value = parse_value(t.info->type, text, catalog_);
    if (!value) {
      Diagnostic d = value.error();
      d.code = d.code.empty() ? "fomap.bake.value" : d.code;
      d.file = file;
      d.field = fmt::format("{}.{}", label(), t.info->name);
      errors.push_back(std::move(d));
      return;
    }
    Applied& a = applied.add(t.info, text);
    if (t.slot->plain)
      remember(pod, *t.slot);
    else
      a.complex_index = t.slot->index;
    store_value(reg_, *t.slot, *value, pod, a.complex, &a.strings);
    if (!t.slot->plain) share(shared, a);
  }

  [[nodiscard]] std::size_t complex_count() const { return reg_.layout().complex_count(); }

  // Between begin_patch and restore, apply writes into a proto's own POD image (no copy per
  // placement) and logs the bytes it overwrites; restore puts them back.
  void begin_patch() {
    patching_ = true;
    undo_.clear();
  }
  void restore(core::Bytes& pod) {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it)
      std::memcpy(pod.data() + it->offset, it->bytes.data(), it->size);
    patching_ = false;
  }

  // The proto's state (built on first use; the reference stays valid for the session).
  ProtoState& proto_state(const Proto& proto) {
    auto [it, fresh] = protos_.try_emplace(&proto);
    if (fresh) build(proto, it->second);
    return it->second;
  }
  // Marks a use in map `map_serial`; the first one also reports the proto's errors.
  static void use(ProtoState& s, std::uint32_t map_serial, core::Diagnostics& errors) {
    if (s.map != map_serial) {
      s.map = map_serial;
      s.strings_left = s.string_props.size();
      errors.insert(errors.end(), s.errors.begin(), s.errors.end());
    }
  }

 private:
  const Registrar& reg_;
  const PropertyCatalog& catalog_;
  std::unordered_map<std::string, KeyTarget, TextHash, std::equal_to<>> keys_;
  std::unordered_map<const Proto*, ProtoState> protos_;

  std::vector<std::int16_t> pairs_;  // scratch of store_int16_pairs
  struct Undo {
    std::uint32_t offset = 0;
    std::uint32_t size = 0;
    std::array<std::uint8_t, 16> bytes{};  // a plain slot is at most 16 bytes (irect)
  };
  bool patching_ = false;
  std::vector<Undo> undo_;

  void remember(const core::Bytes& pod, const Registrar::Slot& slot) {
    if (!patching_) return;
    Undo u;
    u.offset = reg_.layout().plain()[slot.index].offset;
    u.size = std::min<std::uint32_t>(slot.size, static_cast<std::uint32_t>(u.bytes.size()));
    std::memcpy(u.bytes.data(), pod.data() + u.offset, u.size);
    undo_.push_back(u);
  }

  static void share(AppliedList* shared, const Applied& a) {
    if (!shared) return;
    Applied& kept = shared->add(a.info, a.text);
    kept.complex = a.complex;
    kept.strings = a.strings;
  }

  const KeyTarget& resolve(std::string_view key) {
    auto it = keys_.find(key);
    if (it != keys_.end()) return it->second;
    KeyTarget t;
    t.info = catalog_.find(reg_.entity(), key);
    if (t.info) {
      t.skip = reg_.other_side_only(t.info->name);
      t.slot = reg_.find(t.info->name);
      if (!t.slot && t.info->authorable) t.skip = true;
    }
    return keys_.emplace(std::string(key), t).first->second;
  }

  void build(const Proto& proto, ProtoState& s) {
    s.pod.assign(reg_.layout().pod_size(), 0);
    const auto label = [&] { return fmt::format("Proto{} {}", proto.type, proto.name); };
    for (const auto& [key, text] : proto.resolved) apply(key, text, s.pod, s.props, s.errors, label, proto.file);
    const auto props = s.props.items();
    for (std::size_t i = 0; i < props.size(); ++i)
      if (!props[i].strings.empty()) s.string_props.push_back(i);
    s.props.shrink_to_fit();
    for (const Applied& a : s.props.items())
      if (a.complex_index != SIZE_MAX) s.complex.emplace_back(a.complex_index, a.complex);
    s.strings_map.assign(s.string_props.size(), 0);
    s.name_hash = string_hash(proto.name);
  }
};

// A map's dictionary strings, de-duplicated as they arrive (sort_dictionary orders them).
class StringSet {
 public:
  void add(std::string&& s) {
    if (!s.empty() && set_.find(std::string_view(s)) == set_.end()) set_.insert(std::move(s));
  }
  void add(const std::string& s) {
    if (!s.empty() && set_.find(std::string_view(s)) == set_.end()) set_.insert(s);
  }
  [[nodiscard]] std::vector<std::string> take() {
    std::vector<std::string> out;
    out.reserve(set_.size());
    while (!set_.empty()) out.push_back(std::move(set_.extract(set_.begin()).value()));
    return out;
  }

 private:
  std::unordered_set<std::string, TextHash, std::equal_to<>> set_;
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
  return core::Json{
      {"map", name},
      {"source", source},
      {"server",
       {{"file", server_blob_name(name)},
        {"dictionary", server.dictionary},
        {"critters", server.critters},
        {"items", server.items}}},
      {"client", {{"file", client_blob_name(name)}, {"dictionary", client.dictionary}, {"items", client.items}}},
      {"hidden_static_items", hidden_static_items}};
}

struct BakeSession::State {
  State(const Project& p, const BakeRegistrars& regs, BakeOptions o)
      : project(p),
        options(o),
        critter_server(regs.critter_server, p.properties),
        item_server(regs.item_server, p.properties),
        item_client(regs.item_client, p.properties) {}

  const Project& project;
  BakeOptions options;
  SideCache critter_server;
  SideCache item_server;
  SideCache item_client;
  std::uint32_t map_serial = 0;
  // Proto of each $Proto text, by placement kind (placements repeat a few protos many times).
  // What a $Proto text resolves to, and that proto's state on each side it bakes on.
  struct ProtoEntry {
    const Proto* proto = nullptr;
    bool flags_known = false;
    bool is_static = false;  // item protos: Static, Hidden
    bool hidden = false;
    ProtoState* states[2] = {nullptr, nullptr};  // server, client (views of the side caches' states)
  };
  // Entry of each $Proto text, by placement kind (placements repeat a few protos many times).
  std::unordered_map<std::string, ProtoEntry, TextHash, std::equal_to<>> protos_by_text[2];
  std::string_view last_text[2];  // the last hit of each memo (a view of its key)
  ProtoEntry* last_entry[2] = {nullptr, nullptr};
  // Scratch reused by every placement.
  AppliedList applied;
  AppliedList static_item_encodings;  // complex encodings of a static item, from its server pass to its client pass
  std::vector<core::ByteView> complex_view;
  RecordSections server_sections;  // the current map's records, encoded in place
  RecordSections client_sections;

  // Bakes one placement on one side; its record goes to `out` (nullptr: strings only). False
  // when the placement has errors.
  bool bake_one(const MapContainer& container, const Placement& p, SideCache& side, ProtoEntry& entry, BakeSide on,
                StringSet& strings, core::Diagnostics& out_errors, RecordSections* out, AppliedList* shared = nullptr) {
    core::Diagnostics errs;
    ProtoState*& state = entry.states[on == BakeSide::server ? 0 : 1];
    if (!state) state = &side.proto_state(*entry.proto);
    ProtoState& base = *state;
    SideCache::use(base, map_serial, errs);
    applied.clear();
    core::Bytes& pod = base.pod;  // patched for this placement, restored below
    side.begin_patch();
    const auto label = [&] { return placement_label(p); };
    for (const ConfigEntry& e : container.section(p.section).entries)
      side.apply(e.key, e.value, pod, applied, errs, label, container.path(), shared);
    if (!errs.empty()) {
      side.restore(pod);
      out_errors.insert(out_errors.end(), errs.begin(), errs.end());
      return false;
    }
    complex_view.assign(side.complex_count(), core::ByteView());
    for (const auto& [index, bytes] : base.complex) complex_view[index] = bytes;
    const auto items = applied.items();
    for (std::size_t i = 0; i < items.size(); ++i) {
      Applied& a = items[i];
      if (a.complex_index != SIZE_MAX) complex_view[a.complex_index] = a.complex;
      // An old and a new name of one property (`ScriptId`, `InitScript`): keys come in byte
      // order and the last one is the value, so only its strings reach the dictionary.
      const bool superseded = std::any_of(items.begin() + static_cast<std::ptrdiff_t>(i) + 1, items.end(),
                                          [&](const Applied& later) { return later.info == a.info; });
      if (superseded) continue;
      for (std::string& s : a.strings) strings.add(std::move(s));
    }
    // The proto's strings for every property this placement did not override (once per map).
    const auto props = base.props.items();
    const auto overridden = applied.items();
    for (std::size_t k = 0; k < base.string_props.size() && base.strings_left > 0; ++k) {
      const Applied& prop = props[base.string_props[k]];
      if (base.strings_map[k] == map_serial) continue;
      if (std::any_of(overridden.begin(), overridden.end(), [&](const Applied& a) { return a.info == prop.info; }))
        continue;
      base.strings_map[k] = map_serial;
      --base.strings_left;
      for (const std::string& s : prop.strings) strings.add(s);
    }
    if (out) {
      append_property_blob(pod, complex_view, out->begin_record(p.id, base.name_hash));
      out->end_record();
    }
    side.restore(pod);
    return true;
  }

  // The memo entry of a placement's $Proto (its `proto` is nullptr when no proto has that name).
  ProtoEntry& find_proto(const Placement& p) {
    const int k = p.kind == PlacementKind::critter ? 0 : 1;
    if (last_entry[k] && p.proto == last_text[k]) return *last_entry[k];  // runs of one proto are common
    auto& memo = protos_by_text[k];
    auto it = memo.find(p.proto);
    if (it == memo.end()) it = memo.emplace(std::string(p.proto), ProtoEntry{find_placement_proto(project, p)}).first;
    last_text[k] = it->first;
    last_entry[k] = &it->second;
    return it->second;
  }

  // Static / Hidden of an item proto (entry.proto set).
  void read_flags(ProtoEntry& entry) const {
    if (entry.flags_known) return;
    entry.flags_known = true;
    entry.is_static = proto_flag(*entry.proto, "Static", project.properties);
    entry.hidden = proto_flag(*entry.proto, "Hidden", project.properties);
  }
};

BakeSession::BakeSession(const Project& project, const BakeRegistrars& registrars, BakeOptions options)
    : state_(std::make_unique<State>(project, registrars, options)) {}

BakeSession::~BakeSession() = default;

BakeOutcome BakeSession::bake_map(const MapContainer& container, const MapDefinition& map) {
  State& st = *state_;
  ++st.map_serial;
  BakeOutcome out;
  out.name = map.name;
  const std::string& file = container.path();
  for (const auto& e : container.structure_errors())
    out.errors.push_back(
        Diagnostic::error(e.code, e.message).of(file).in(fmt::format("line {}: [{}]", e.line, e.section)));
  if (!out.errors.empty()) return out;

  BakedMap baked;
  baked.name = map.name;
  baked.source = file;
  StringSet server_strings;
  StringSet client_strings;

  using ProtoEntry = State::ProtoEntry;
  auto resolve = [&](const Placement& p) -> ProtoEntry* {
    if (!p.has_proto) {
      out.errors.push_back(Diagnostic::error("fomap.bake.proto_missing", "placement without $Proto")
                               .of(file)
                               .in(fmt::format("{} (line {})", to_string(p.kind), p.line)));
      return nullptr;
    }
    ProtoEntry& entry = st.find_proto(p);
    if (entry.proto) return &entry;
    out.errors.push_back(
        Diagnostic::error("fomap.bake.proto_unknown", fmt::format("unknown {} proto `{}`", to_string(p.kind), p.proto))
            .of(file)
            .in(placement_label(p)));
    return nullptr;
  };

  RecordSections& server = st.server_sections;
  RecordSections& client = st.client_sections;
  server.clear();
  client.clear();
  server.begin_section();
  for (const Placement& p : map.critters) {
    ProtoEntry* entry = resolve(p);
    if (!entry) continue;
    st.bake_one(container, p, st.critter_server, *entry, BakeSide::server, server_strings, out.errors, &server);
  }
  server.begin_section();
  client.begin_section();
  for (const Placement& p : map.items) {
    ProtoEntry* entry = resolve(p);
    if (!entry) continue;
    st.read_flags(*entry);
    const bool is_static = entry->is_static;
    const bool hidden = entry->hidden;
    st.static_item_encodings.clear();
    st.bake_one(container, p, st.item_server, *entry, BakeSide::server, server_strings, out.errors, &server,
                is_static ? &st.static_item_encodings : nullptr);
    if (!is_static) continue;
    if (st.bake_one(container, p, st.item_client, *entry, BakeSide::client, client_strings, out.errors,
                    hidden ? nullptr : &client, &st.static_item_encodings) &&
        hidden)
      ++baked.hidden_static_items;
  }
  if (!out.errors.empty()) return out;
  std::vector<std::string> server_list = server_strings.take();
  std::vector<std::string> client_list = client_strings.take();
  if (st.options.client_dictionary_includes_server_strings)
    client_list.insert(client_list.end(), server_list.begin(), server_list.end());
  const std::vector<std::string> server_dictionary = sort_dictionary(std::move(server_list));
  const std::vector<std::string> client_dictionary = sort_dictionary(std::move(client_list));
  baked.server_blob = write_map_blob(server_dictionary, server.bytes());
  baked.client_blob = write_map_blob(client_dictionary, client.bytes());
  baked.server = {server_dictionary.size(), server.count(0), server.count(1)};
  baked.client = {client_dictionary.size(), 0, client.count(0)};
  out.baked = std::move(baked);
  return out;
}

std::vector<BakeOutcome> BakeSession::bake_container(const MapContainer& container) {
  std::vector<BakeOutcome> outcomes;
  for (const MapDefinition& map : container.maps()) outcomes.push_back(bake_map(container, map));
  if (container.maps().empty() && !container.structure_errors().empty()) {
    BakeOutcome o;
    o.name = container.stem();
    for (const auto& e : container.structure_errors())
      o.errors.push_back(Diagnostic::error(e.code, e.message).of(container.path()).in(fmt::format("line {}", e.line)));
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

BakeOutcome bake_map(const MapContainer& container, const MapDefinition& map, const Project& project,
                     const BakeRegistrars& registrars, const BakeOptions& options) {
  return BakeSession(project, registrars, options).bake_map(container, map);
}

std::vector<BakeOutcome> bake_container(const MapContainer& container, const Project& project,
                                        const BakeRegistrars& registrars, const BakeOptions& options) {
  return BakeSession(project, registrars, options).bake_container(container);
}

core::Status write_baked_map(const BakedMap& baked, const std::filesystem::path& dir) {
  const core::FileWrite pair[] = {{dir / server_blob_name(baked.name), baked.server_bytes()},
                                  {dir / client_blob_name(baked.name), baked.client_bytes()}};
  return core::write_files_together(pair);
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
