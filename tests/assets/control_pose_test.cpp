// A prototype's CTLD (issue #18 part 5, docs/poses.md): the first `.ctl` ObjectRef of its
// registry entry gives every component instance its own static pose (node -> frame), also when
// the instances share one prepared visual, and posed_to_model draws the nodes at those frames.
#include <gtest/gtest.h>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/iron3d/ctld.hpp"
#include "sortie/iron3d/wear.hpp"
#include "sortie_test/animated_boxes.hpp"

namespace sortie::assets {
namespace {

class ControlPoseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GameBuilder g(ArchiveFormat::nres);
    ASSERT_TRUE(g.add_material("M_A", {""}));
    auto msh = iron3d::write_msh_canonical(test_models::animated_boxes());
    ASSERT_TRUE(msh.has_value()) << msh.error().to_string();
    g.add_nres_entry("static.rlb", {0, 0, 0, 0, "anim.msh", *msh});
    g.add_nres_entry("static.rlb", {iron3d::nres_type_tag("WEAR"), 0, 0, 1, "anim.wea",
                                    iron3d::write_wear(*iron3d::build_wear({"M_A"}))});
    // Node 1 at blend 0.75 between frames 0 and 4: frame 3.
    const auto ctld = iron3d::build_ctld(0, 0, {iron3d::make_ctld_row(1, 0.0f, 4.0f, 0.75f, 0)});
    g.add_nres_entry("static.rlb", {0, 0, 0, 2, "anim.ctl", iron3d::write_ctld(ctld)});
    g.add_prototype("s_posed", {{"static.rlb", "anim.msh"}, {"static.rlb", "anim.ctl"}});
    g.add_prototype("s_still", {{"static.rlb", "anim.msh"}});
    g.add_prototype("s_lost", {{"static.rlb", "anim.msh"}, {"static.rlb", "gone.ctl"}});
    ASSERT_TRUE(g.fill(vfs_));
  }

  // The three prototypes placed twice each (posed, still, posed, lost), as a mission would.
  std::shared_ptr<const VisualStore> store() {
    ArchiveRepository repo(vfs_);
    PrototypeResolver resolver(repo, {});
    MissionData md;
    md.tma_path.path = "test";
    const std::uint32_t node = md.graph.node(NodeKind::mission, md.tma_path.path);
    const std::vector<PlacedObjectRequest> requests{
        {0, "s_posed", "a"}, {1, "s_still", "b"}, {2, "s_posed", "c"}, {3, "s_lost", "d"}};
    md.objects = resolver.resolve(md.tma_path.path, node, requests, md.graph);
    VisualCache cache;
    auto s = build_visual_store(repo, cache, md, {});
    EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().to_string());
    return s ? *s : nullptr;
  }
  MemoryVfs vfs_;
};

TEST_F(ControlPoseTest, every_instance_gets_its_prototypes_ctld_pose_over_a_shared_visual) {
  const auto s = store();
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->placements().size(), 4u);
  const auto& posed = s->placements()[0].components.at(0);
  const auto& still = s->placements()[1].components.at(0);
  const auto& again = s->placements()[2].components.at(0);
  const auto& lost = s->placements()[3].components.at(0);
  const std::map<std::int32_t, float> expected{{1, 3.0f}};
  EXPECT_EQ(posed.node_frames, expected);
  EXPECT_EQ(again.node_frames, expected);
  EXPECT_NE(&posed.node_frames, &again.node_frames);  // a record per instance
  EXPECT_TRUE(still.node_frames.empty());
  EXPECT_TRUE(lost.node_frames.empty());  // a `.ctl` ref without its entry: no pose, no error
  // One prepared visual serves all of them.
  ASSERT_NE(posed.prototype, nullptr);
  ASSERT_NE(still.prototype, nullptr);
  EXPECT_EQ(posed.prototype->visual->mesh, still.prototype->visual->mesh);

  // Drawn posed: node 1 at frame 3 of its animation, under node 0; the still instance keeps z = 5.
  const PreparedMesh& mesh = *posed.prototype->visual->mesh;
  const auto at_frame = posed_to_model(mesh, posed.node_frames);
  const auto at_rest = posed_to_model(mesh, still.node_frames);
  ASSERT_EQ(at_frame.size(), 2u);
  ASSERT_EQ(at_rest.size(), 2u);
  const core::Vec3 moved = at_frame[1].transform_point({0, 0, 0});
  const core::Vec3 rest = at_rest[1].transform_point({0, 0, 0});
  const core::Vec3 sampled = (mesh.nodes[0].to_model * node_pose_at(mesh, 1, 3.0f)).transform_point({0, 0, 0});
  EXPECT_EQ(moved.x, sampled.x);
  EXPECT_EQ(moved.z, 0.0f);
  EXPECT_GT(moved.x, 0.0f);
  EXPECT_EQ(rest.z, 5.0f);
  EXPECT_EQ(rest.x, mesh.nodes[1].to_model.transform_point({0, 0, 0}).x);
}

TEST_F(ControlPoseTest, resolver_names_the_first_existing_ctl_ref) {
  ArchiveRepository repo(vfs_);
  PrototypeResolver resolver(repo, {});
  MissionData md;
  const std::uint32_t node = md.graph.node(NodeKind::mission, "m");
  const std::vector<PlacedObjectRequest> requests{{0, "s_posed", ""}, {1, "s_lost", ""}};
  const auto objects = resolver.resolve("m", node, requests, md.graph);
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[0].components.at(0).control_archive, "static.rlb");
  EXPECT_EQ(objects[0].components.at(0).control_entry, "anim.ctl");
  EXPECT_EQ(objects[1].components.at(0).control_entry, "");
}

}  // namespace
}  // namespace sortie::assets
