// Posed export (issue #20 part 1): the MSH node animation sampled at a time (spec §9.2) or at the
// frames a CTLD gives each node, instead of the static pose.
#include <gtest/gtest.h>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/game_builder.hpp"
#include "sortie/assets/visual_store.hpp"
#include "sortie/interchange/gltf_export.hpp"
#include "sortie/interchange/gltf_import.hpp"
#include "sortie/iron3d/ctld.hpp"
#include "sortie/iron3d/wear.hpp"
#include "sortie_test/animated_boxes.hpp"

namespace sortie::interchange {
namespace {

class PoseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    assets::GameBuilder g(assets::ArchiveFormat::nres);
    ASSERT_TRUE(g.add_material("M_A", {""}));
    auto msh = iron3d::write_msh_canonical(test_models::animated_boxes());
    ASSERT_TRUE(msh.has_value()) << msh.error().to_string();
    g.add_nres_entry("static.rlb", {0, 0, 0, 0, "anim.msh", *msh});
    g.add_nres_entry("static.rlb", {iron3d::nres_type_tag("WEAR"), 0, 0, 1, "anim.wea",
                                    iron3d::write_wear(*iron3d::build_wear({"M_A"}))});
    g.add_prototype("s_anim", {{"static.rlb", "anim.msh"}});
    ASSERT_TRUE(g.fill(vfs_));
  }
  // The child box's lowest corner after export and import (flattened into model space).
  core::Vec3 child_min(const GltfExportOptions& options) {
    assets::ArchiveRepository repo(vfs_);
    assets::VisualCache cache;
    auto store = assets::prepare_model(repo, cache, "s_anim");
    EXPECT_TRUE(store.has_value()) << (store ? "" : store.error().to_string());
    auto glb = export_model_gltf(**store, options);
    EXPECT_TRUE(glb.has_value());
    auto model = read_gltf_model({core::ByteView(glb->files.front().bytes), {}});
    EXPECT_TRUE(model.has_value()) << (model ? "" : model.error().to_string());
    // Two boxes of 8 corners each, in node order: the second eight are the child's.
    core::Vec3 lo{1e9f, 1e9f, 1e9f};
    for (std::size_t i = model->positions.size() / 2; i < model->positions.size(); ++i)
      lo = {std::min(lo.x, model->positions[i].x), std::min(lo.y, model->positions[i].y),
            std::min(lo.z, model->positions[i].z)};
    return lo;
  }
  assets::MemoryVfs vfs_;
};

TEST_F(PoseTest, the_static_pose_a_sampled_time_and_a_ctld_frame) {
  const auto near = [](core::Vec3 a, core::Vec3 b) {
    return std::abs(a.x - b.x) < 1e-4f && std::abs(a.y - b.y) < 1e-4f && std::abs(a.z - b.z) < 1e-4f;
  };
  EXPECT_TRUE(near(child_min({}), {-1, -1, 4}));  // static: the fallback key, z + 5
  GltfExportOptions at2;
  at2.frame = 2.0f;  // frame round(1.5) = 2 -> keys 0 and 1 at t = 2: halfway, x + 5
  EXPECT_TRUE(near(child_min(at2), {4, -1, -1}));
  GltfExportOptions late;
  late.frame = 9.0f;  // past the frame count: the static pose
  EXPECT_TRUE(near(child_min(late), {-1, -1, 4}));
  // A CTLD row for node 1 with endpoints 0 and 4 at blend 0.75: frame 3 -> x + 7.5.
  const auto ctld = iron3d::build_ctld(0, 0, {iron3d::make_ctld_row(1, 0.0f, 4.0f, 0.75f, 0)});
  GltfExportOptions posed;
  for (const auto& n : iron3d::evaluate_ctld_pose(ctld).nodes) posed.node_frames[n.node_id] = n.frame;
  EXPECT_TRUE(near(child_min(posed), {6.5f, -1, -1}));
  GltfExportOptions rest;
  rest.rest_pose = true;
  EXPECT_TRUE(near(child_min(rest), {-1, -1, -1}));
}

}  // namespace
}  // namespace sortie::interchange
