// The runtime path of a container, map by map: bake, read back, static load, instance, client.
#include <fmt/format.h>

#include "sortie/fomap/materialize.hpp"

namespace sortie::fomap {

using core::Diagnostic;

core::Json MaterializedInstance::to_json() const {
  core::Json j = materialized.to_json();
  j["server_static"] = {{"critter_billets", statics.critters.size()},
                        {"static_items", statics.static_items.size()},
                        {"hex_item_billets", statics.hex_items.size()},
                        {"child_item_billets", statics.child_items.size()}};
  j["client_static_items"] = client_items.size();
  return j;
}

namespace {

// One map through every step; the runtime steps' errors are given the container's path.
InstanceOutcome materialize_one(const MapContainer& container, const MapDefinition& map, const Project& project,
                                const BakeRegistrars& registrars, const ProtoNames& names,
                                std::uint64_t& next_runtime_id) {
  InstanceOutcome out;
  out.map = map.name;
  auto fail = [&](Diagnostic d) {
    d.file = container.path();
    out.errors.push_back(std::move(d));
    return std::move(out);
  };
  BakeOutcome baked = bake_map(container, map, project, registrars);
  if (!baked.baked) {
    out.errors = std::move(baked.errors);
    return out;
  }
  const auto size = map_size_of(container, map, project);
  if (!size) return fail(Diagnostic::error("fomap.runtime.size", "map Size does not parse").in(map.name));
  // Through the bytes, as the runtime reads them.
  auto server = read_server_blob(baked.baked->server_bytes(), server_blob_name(map.name));
  if (!server) return fail(server.error());
  auto client = read_client_blob(baked.baked->client_bytes(), client_blob_name(map.name));
  if (!client) return fail(client.error());
  auto statics = load_server_statics(*server, map.name, *size, registrars, names);
  if (!statics) return fail(statics.error());
  auto materialized = materialize(*statics, next_runtime_id);
  if (!materialized) return fail(materialized.error());
  auto client_items = load_client_statics(*client, *size, registrars, names);
  if (!client_items) return fail(client_items.error());
  out.instance = MaterializedInstance{std::move(*statics), std::move(*materialized), std::move(*client_items)};
  return out;
}

}  // namespace

core::Result<std::vector<InstanceOutcome>> materialize_container(const MapContainer& container, const Project& project,
                                                                 const BakeRegistrars& registrars,
                                                                 std::string_view only,
                                                                 std::uint64_t first_runtime_id) {
  const ProtoNames names = proto_names_of(project);
  std::uint64_t next_runtime_id = first_runtime_id;
  std::vector<InstanceOutcome> outcomes;
  for (const MapDefinition& map : container.maps()) {
    if (!only.empty() && map.name != only) continue;
    outcomes.push_back(materialize_one(container, map, project, registrars, names, next_runtime_id));
  }
  if (outcomes.empty())
    return core::fail(Diagnostic::error("fomap.materialize.no_map",
                                        only.empty() ? "the file declares no map" : "no such map in the file")
                          .of(container.path())
                          .expect("a declared map", std::string(only)));
  return outcomes;
}

}  // namespace sortie::fomap
