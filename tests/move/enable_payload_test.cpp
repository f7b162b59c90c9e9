// move.enable and the Body it gives share one field list: the payload's bytes after the target
// are the body's state encoding (before its revision), and both are the documented layout.
#include <gtest/gtest.h>

#include <algorithm>

#include "sortie/move/commands.hpp"
#include "sortie/move/components.hpp"
#include "sortie/world/state_writer.hpp"

using namespace sortie;
using namespace sortie::move;

TEST(EnablePayload, bytes_are_the_documented_layout_and_the_body_encoding) {
  const world::ObjectId u{1, 20, 3};
  const EnableCommand enable{u, Shape::circle, 1.5f, 0.25f, 6.0f, 4, 5, true};
  core::ByteWriter w;
  w.u64(u.raw());
  w.u8(0);  // circle
  w.f32(1.5f);
  w.f32(0.25f);
  w.f32(6.0f);
  w.u32(4);
  w.u32(5);
  w.u8(1);
  const core::Bytes payload = world::encode_payload(enable);
  EXPECT_EQ(payload, w.buffer());

  const Body body{Shape::circle, 1.5f, 0.25f, 6.0f, 4, 5, true, 9};
  world::StateWriter state;
  body.encode(state);
  ASSERT_EQ(state.view().size(), payload.size() - 8 + 4);
  EXPECT_TRUE(std::equal(payload.begin() + 8, payload.end(), state.view().begin()));
  EXPECT_EQ(state.view()[state.view().size() - 4], 9);  // the revision, after the shared fields
}

TEST(EnablePayload, rejects_shape_and_flag_with_their_codes_and_fields) {
  core::Bytes p = world::encode_payload(EnableCommand{world::ObjectId{1, 20, 3}});
  p[8] = 2;
  auto shape = world::decode_payload<EnableCommand>(p);
  ASSERT_FALSE(shape);
  EXPECT_EQ(shape.error().code, "world.command.move.shape");
  EXPECT_EQ(shape.error().field, "move.enable.shape");
  EXPECT_EQ(shape.error().expected, "0 circle, 1 capsule");

  p = world::encode_payload(EnableCommand{world::ObjectId{1, 20, 3}});
  p.back() = 7;
  auto flag = world::decode_payload<EnableCommand>(p);
  ASSERT_FALSE(flag);
  EXPECT_EQ(flag.error().code, "world.command.move.flag");
  EXPECT_EQ(flag.error().field, "move.enable.static");
  EXPECT_EQ(flag.error().found, "7");
}
