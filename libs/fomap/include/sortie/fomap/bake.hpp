#pragma once
// MapBaker (spec/fomap.md §10, §11; contract: seeds/004 "Серверный и клиентский output"): every
// map declared by a container bakes to a coupled pair `<MapId>.fomap-bin-server` /
// `<MapId>.fomap-bin-client`.
//
// - server: hash dictionary, every critter placement, then every item placement (static,
//   dynamic and children), in MapLoader order, ids after the engine's repair;
// - client: hash dictionary and one record per item whose **proto** is Static and not Hidden;
//   hidden static items still contribute their client property strings to the dictionary;
// - property blobs: full-mode StoreAllData (§10.3) over a registrar laid out from the property
//   catalog (engine + project declarations). Registration order is the catalog's name order:
//   byte-exact agreement with an engine build needs that build's metadata (§10.3), which no
//   source text carries.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/fomap/map_blob.hpp"
#include "sortie/fomap/map_model.hpp"
#include "sortie/fomap/project.hpp"
#include "sortie/fomap/property_blob.hpp"

namespace sortie::fomap {

enum class BakeSide : std::uint8_t { server, client };

// One entity type on one side: the POD layout plus, per property, where its value lives.
class Registrar {
 public:
  struct Slot {
    const PropertyInfo* info = nullptr;
    bool plain = false;
    std::size_t index = 0;   // plain index (PropertyLayout::plain()) or complex index
    std::uint32_t size = 0;  // plain size in bytes
  };
  Registrar(const PropertyCatalog& catalog, std::string_view entity, BakeSide side);

  [[nodiscard]] const PropertyLayout& layout() const { return layout_; }
  [[nodiscard]] std::string_view entity() const { return entity_; }
  [[nodiscard]] BakeSide side() const { return side_; }
  // Slot of a (migrated) property name; nullptr when the property has no storage on this side.
  [[nodiscard]] const Slot* find(std::string_view name) const;
  // True when `name` is a property of the other side only (skipped silently, §5.1.4).
  [[nodiscard]] bool other_side_only(std::string_view name) const;

  // Reads back a plain integer-like property (ints, bool, enum, ident, mdir...) as int64;
  // nullopt when the property has no plain storage.
  [[nodiscard]] std::optional<std::int64_t> plain_int(const PropertyData& data, std::string_view name,
                                                      std::uint32_t field = 0) const;
  // Raw bytes of a complex property; nullopt when absent from this registrar.
  [[nodiscard]] std::optional<core::ByteView> complex(const PropertyData& data, std::string_view name) const;

 private:
  std::string entity_;
  BakeSide side_;
  PropertyLayout layout_;
  std::map<std::string, Slot, std::less<>> slots_;
  std::map<std::string, bool, std::less<>> other_side_;
};

// The four registrars a map bake needs.
struct BakeRegistrars {
  explicit BakeRegistrars(const PropertyCatalog& catalog);
  Registrar critter_server;
  Registrar item_server;
  Registrar critter_client;
  Registrar item_client;
};

struct BakeOptions {
  // The contract (seeds/004) says the client dictionary also carries every string collected for
  // the server blob; the fact sheet (§10.2) describes only the static items' client strings.
  // true = contract (default), false = fact sheet.
  bool client_dictionary_includes_server_strings = true;
};

// What one baked blob holds (read_server_blob / read_client_blob give the records back).
struct BakedCounts {
  std::size_t dictionary = 0;
  std::size_t critters = 0;  // server only
  std::size_t items = 0;
};

// The two blobs of a map, encoded once while baking (no record-by-record copies).
struct BakedMap {
  std::string name;         // map id = output basename
  std::string source;       // container path
  core::Bytes server_blob;  // `<name>.fomap-bin-server`
  core::Bytes client_blob;  // `<name>.fomap-bin-client`
  BakedCounts server;
  BakedCounts client;
  std::size_t hidden_static_items = 0;  // static by proto, hidden by proto: strings only
  [[nodiscard]] const core::Bytes& server_bytes() const { return server_blob; }
  [[nodiscard]] const core::Bytes& client_bytes() const { return client_blob; }
  [[nodiscard]] core::Json summary_json() const;
};

struct BakeOutcome {
  std::string name;
  std::optional<BakedMap> baked;  // set only when there was no error
  core::Diagnostics errors;       // aggregated like the engine: any error fails the map
};

// Bakes maps against one project, keeping what does not depend on the map for the session's
// lifetime: per-proto stored state on each side, property key resolution and proto
// Static/Hidden flags. Every outcome is the one a fresh bake of that map alone gives (a broken
// proto fails every map that uses it). A tool baking a pack uses one session for the run.
// `project` and `registrars` must outlive the session.
class BakeSession {
 public:
  BakeSession(const Project& project, const BakeRegistrars& registrars, BakeOptions options = {});
  ~BakeSession();
  BakeSession(const BakeSession&) = delete;
  BakeSession& operator=(const BakeSession&) = delete;

  // Bakes one declared map of a container.
  BakeOutcome bake_map(const MapContainer& container, const MapDefinition& map);
  // Bakes every map of a container (EnumerateMaps order); a non-loadable container gives one
  // failed outcome per declared map (or one for the file when it declares none but has errors).
  std::vector<BakeOutcome> bake_container(const MapContainer& container);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// One-shot forms of BakeSession::bake_map / bake_container (a session per call).
BakeOutcome bake_map(const MapContainer& container, const MapDefinition& map, const Project& project,
                     const BakeRegistrars& registrars, const BakeOptions& options = {});
std::vector<BakeOutcome> bake_container(const MapContainer& container, const Project& project,
                                        const BakeRegistrars& registrars, const BakeOptions& options = {});

// Writes `<dir>/<name>.fomap-bin-server` and `-client` as one set (core::write_files_together): both or
// neither; when the second cannot be placed, the first gets its previous contents back.
core::Status write_baked_map(const BakedMap& baked, const std::filesystem::path& dir);

// Map containers under the given paths: files are taken as given; directories are walked
// recursively (sorted) for files with a proto-container extension that declare `[ProtoMap]`.
std::vector<std::filesystem::path> find_map_containers(const std::vector<std::filesystem::path>& paths);

}  // namespace sortie::fomap
