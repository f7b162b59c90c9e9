// materialize_container: bake in memory, read back, static load, one instance, client statics.
#include <gtest/gtest.h>

#include "protos_fixture.hpp"
#include "sortie/fomap/materialize.hpp"

namespace sortie::fomap {
namespace {

const Project& project() {
  static const Project p = test::project_with_protos(
      "[ProtoCritter]\n$Name = Guard\n\n[ProtoItem]\n$Name = Wall\nStatic = True\n\n"
      "[ProtoItem]\n$Name = Crate\n\n[ProtoItem]\n$Name = Ammo\n",
      "Test.fopro");
  return p;
}

constexpr std::string_view kThreeMaps =
    "[ProtoMap]\n$Name = Alpha\nSize = 40 40\n\n"
    "[$Name/Critter]\n$Id = 11\n$Proto = Guard\nHex = 10 11\n\n"
    "[$Name/Item]\n$Id = 21\n$Proto = Wall\nHex = 12 13\n\n"
    "[$Name/Item]\n$Id = 31\n$Proto = Crate\nHex = 5 5\n\n"
    "[$Name/Item]\n$Id = 41\n$Proto = Ammo\nContainerId = 31\nOwnership = ItemContainer\n\n"
    "[$Name/Item]\n$Id = 42\n$Proto = Ammo\nCritterId = 11\nOwnership = CritterInventory\n\n"
    "[$Name/Item]\n$Id = 43\n$Proto = Ammo\nContainerId = 21\nOwnership = ItemContainer\n\n"
    "[ProtoMap]\n$Name = Beta\nSize = 10 10\n\n"
    "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 2 2\n\n"
    "[ProtoMap]\n$Name = Gamma\nSize = 10 10\n\n"
    "[$Name/Critter]\n$Id = 1\n$Proto = Guard\nHex = 50 50\n";

TEST(FomapMaterializeContainer, runs_every_map_and_numbers_runtime_ids_across_them) {
  const MapContainer c = MapContainer::from_text(std::string(kThreeMaps), "Maps/three.fomap");
  const BakeRegistrars regs(project().properties);
  auto r = materialize_container(c, project(), regs);
  ASSERT_TRUE(r.has_value()) << r.error().to_string();
  ASSERT_EQ(r->size(), 3u);

  const InstanceOutcome& alpha = (*r)[0];
  ASSERT_TRUE(alpha.instance.has_value()) << alpha.errors.front().to_string();
  const MaterializedInstance& a = *alpha.instance;
  EXPECT_EQ(a.statics.critters.size(), 1u);
  EXPECT_EQ(a.statics.static_items.size(), 1u);
  EXPECT_EQ(a.statics.hex_items.size(), 1u);
  EXPECT_EQ(a.statics.child_items.size(), 3u);
  // Critter 11 -> 1, crate 31 -> 2, then the children in file order: 41 -> 3 (in the crate),
  // 42 -> 4 (carried by the guard); 43 sits in the static wall, which gets no runtime id.
  ASSERT_EQ(a.materialized.entities.size(), 4u);
  EXPECT_EQ(a.materialized.id_map, (std::map<std::int64_t, std::uint64_t>{{11, 1}, {31, 2}}));
  EXPECT_EQ(a.materialized.entities[2].authored_id, 41);
  EXPECT_EQ(a.materialized.entities[2].owner_runtime_id, 2u);
  EXPECT_EQ(a.materialized.entities[3].owner_runtime_id, 1u);
  ASSERT_EQ(a.materialized.skipped.size(), 1u);
  EXPECT_EQ(a.materialized.skipped[0].reason_code, "owner-static");
  ASSERT_EQ(a.client_items.size(), 1u);  // the visible static wall
  EXPECT_EQ(a.client_items[0].authored_id, 21);
  const core::Json j = a.to_json();
  EXPECT_EQ(j.at("client_static_items"), 1);
  EXPECT_EQ(j.at("server_static").at("child_item_billets"), 3);

  ASSERT_TRUE((*r)[1].instance.has_value());
  EXPECT_EQ((*r)[1].instance->materialized.entities.at(0).runtime_id, 5u);  // continues after Alpha

  const InstanceOutcome& gamma = (*r)[2];
  EXPECT_FALSE(gamma.instance.has_value());
  ASSERT_EQ(gamma.errors.size(), 1u);
  EXPECT_EQ(gamma.errors[0].code, "fomap.runtime.hex_out_of_bounds");
  EXPECT_EQ(gamma.errors[0].file, "Maps/three.fomap");
}

TEST(FomapMaterializeContainer, only_one_map_or_no_such_map) {
  const MapContainer c = MapContainer::from_text(std::string(kThreeMaps), "Maps/three.fomap");
  const BakeRegistrars regs(project().properties);
  auto beta = materialize_container(c, project(), regs, "Beta");
  ASSERT_TRUE(beta.has_value());
  ASSERT_EQ(beta->size(), 1u);
  EXPECT_EQ(beta->front().instance->materialized.entities.at(0).runtime_id, 1u);
  auto none = materialize_container(c, project(), regs, "Delta");
  ASSERT_FALSE(none.has_value());
  EXPECT_EQ(none.error().code, "fomap.materialize.no_map");
  EXPECT_EQ(none.error().found, "Delta");
}

TEST(FomapMaterializeContainer, a_map_that_does_not_bake_reports_the_bake_errors) {
  const MapContainer c = MapContainer::from_text(
      "[ProtoMap]\n$Name = A\nSize = 9 9\n\n[$Name/Item]\n$Id = 1\n$Proto = Nope\nHex = 1 1\n", "a.fomap");
  const BakeRegistrars regs(project().properties);
  auto r = materialize_container(c, project(), regs);
  ASSERT_TRUE(r.has_value());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(r->front().errors.at(0).code, "fomap.bake.proto_unknown");
}

}  // namespace
}  // namespace sortie::fomap
