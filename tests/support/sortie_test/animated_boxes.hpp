#pragma once
// An animated two-node MSH model for the pose tests (tests/assets/control_pose_test.cpp,
// tests/interchange/pose_test.cpp): a box (node 0 "body") with a second box (node 1 "arm")
// hanging off it, animated from x = 0 at time 0 to x = 10 at time 4; its static pose (the
// fallback key) is z = 5. (Its own namespace: sortie::assets has a `test` of its own, and unity
// batches see both.)
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/iron3d/msh.hpp"

namespace sortie::test_models {

inline iron3d::MshModel animated_boxes() {
  iron3d::MshModel m = *iron3d::build_msh_model(iron3d::msh_box_input(1, 1, 1));
  iron3d::MshNode child = m.nodes[0];
  child.parent = 0;
  child.anim_map_start = 0;
  child.fallback_key = 2;
  m.nodes[0].fallback_key = 3;
  m.nodes.push_back(child);
  m.node_count = 2;
  m.node_names = std::vector<std::string>{"body", "arm"};
  m.anim_keys = std::vector<iron3d::MshAnimKey>{{{0, 0, 0}, 0, {0, 0, 0, 32767}},
                                                {{10, 0, 0}, 4, {0, 0, 0, 32767}},
                                                {{0, 0, 5}, 0, {0, 0, 0, 32767}},
                                                {{0, 0, 0}, 0, {0, 0, 0, 32767}}};
  m.frame_map = std::vector<std::uint16_t>{0, 0, 0, 0, 0};
  m.frame_count = 5;
  for (auto& stream : m.streams) {  // the node table and the names (kept raw) count nodes
    if (stream.type_id == 1) stream.attr1 = 2;
    if (stream.type_id == 10) {
      core::ByteWriter w;
      for (const std::string name : {"body", "arm"}) {
        w.u32(static_cast<std::uint32_t>(name.size()));
        w.bytes(name);
        w.u8(0);
      }
      stream.payload = w.take();
      stream.attr1 = 2;
    }
  }
  m.streams.push_back({8, 4, 0, 24, core::FixedString::make("Res8", 36), {}});
  m.streams.push_back({19, 5, 5, 2, core::FixedString::make("Res19", 36), {}});
  return m;
}

}  // namespace sortie::test_models
