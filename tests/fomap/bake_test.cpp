#include <gtest/gtest.h>

#include "sortie/fomap/hash.hpp"
#include "sortie/fomap/map_blob.hpp"
#include "sortie/fomap/property_blob.hpp"

namespace sortie::fomap {
namespace {

using core::Bytes;

TEST(FomapMapBlob, empty_server_blob_is_twelve_zero_bytes) {
  EXPECT_EQ(write_server_blob({}), Bytes(12, 0));
  EXPECT_EQ(write_client_blob({}), Bytes(8, 0));
  auto s = read_server_blob(Bytes(12, 0));
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->dictionary.empty() && s->critters.empty() && s->items.empty());
  auto c = read_client_blob(Bytes(8, 0));
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->items.empty());
}

TEST(FomapMapBlob, dictionary_is_sorted_by_hash_and_deduplicated) {
  auto d = sort_dictionary({"Map", "a", "", "Critter", "a", "Item"});
  ASSERT_EQ(d.size(), 4u);
  for (std::size_t i = 1; i < d.size(); ++i) EXPECT_LT(string_hash(d[i - 1]), string_hash(d[i]));
  // 0x2a3a.. Critter < 0x6cf8.. a < 0x95f6.. Item < 0xdfe3.. Map
  EXPECT_EQ(d, (std::vector<std::string>{"Critter", "a", "Item", "Map"}));
}

TEST(FomapMapBlob, server_record_layout_is_exact) {
  ServerMapBlob b;
  b.dictionary = {"ab"};
  b.critters.push_back({5001, string_hash("Guard"), Bytes{1, 2, 3}});
  b.items.push_back({-2, 7, Bytes{}});
  const Bytes bytes = write_server_blob(b);
  const Bytes expected_head{1, 0, 0, 0, 2, 0, 0, 0, 'a', 'b', 1, 0, 0, 0, 0x89, 0x13, 0, 0, 0, 0, 0, 0};
  ASSERT_GE(bytes.size(), expected_head.size());
  EXPECT_EQ(Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(expected_head.size())), expected_head);
  EXPECT_EQ(bytes.size(), 4u + 6 + 4 + (20 + 3) + 4 + 20);
  auto back = read_server_blob(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, b);
  EXPECT_EQ(write_server_blob(*back), bytes);
}

TEST(FomapMapBlob, reader_accepts_unsorted_dictionary) {
  ClientMapBlob b;
  b.dictionary = {"zzz", "Map", "a"};
  b.items.push_back({3, 4, Bytes{9}});
  auto back = read_client_blob(write_client_blob(b));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->dictionary, b.dictionary);
}

TEST(FomapMapBlob, rejects_trailing_bytes_after_client_blob) {
  Bytes data(8, 0);
  data.push_back(0);
  auto r = read_client_blob(data, "x.fomap-bin-client");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "fomap.bin.trailing");
}

TEST(FomapMapBlob, rejects_record_count_past_end) {
  Bytes data{0, 0, 0, 0, 0xff, 0xff, 0xff, 0x00};
  auto r = read_client_blob(data);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "fomap.bin.eof");
}

TEST(FomapMapBlob, rejects_dictionary_string_longer_than_data) {
  Bytes data{1, 0, 0, 0, 100, 0, 0, 0, 'x'};
  auto r = read_server_blob(data);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().field, "dictionary[0]");
}

TEST(FomapPropertyLayout, places_plain_properties_first_fit_per_area) {
  PropertyLayout l;
  l.add_plain("Flag", PodArea::public_sync, 1);     // public 0
  l.add_plain("Hex", PodArea::public_sync, 4);      // public 4
  l.add_plain("Flag2", PodArea::public_sync, 1);    // public 1 (first fit)
  l.add_plain("Id", PodArea::public_sync, 8);       // public 8
  l.add_plain("Secret", PodArea::private_data, 2);  // private 0 -> after owner area
  l.add_plain("Own", PodArea::owner_sync, 4);       // owner 0
  l.add_complex("Name");
  l.finish();
  const auto& p = l.plain();
  EXPECT_EQ(p[0].offset, 0u);
  EXPECT_EQ(p[1].offset, 4u);
  EXPECT_EQ(p[2].offset, 1u);
  EXPECT_EQ(p[3].offset, 8u);
  EXPECT_EQ(p[5].offset, 16u);  // public area 16 bytes
  EXPECT_EQ(p[4].offset, 24u);  // owner area rounded to 8
  EXPECT_EQ(l.pod_size(), 32u);
  EXPECT_EQ(l.complex_count(), 1u);
}

TEST(FomapPropertyBlob, pod_runs_sample_every_fourth_byte) {
  const Bytes pod{0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2};
  const auto runs = pod_runs(pod);
  // 5 at 2 opens a run, jump to 6 (zero) -> closes [2,6); 1 at 12 -> jump 16 (zero) -> [12,16);
  // 2 at 17 -> open, jump past the end -> [17,18).
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0], (PodRun{2, 4}));
  EXPECT_EQ(runs[1], (PodRun{12, 4}));
  EXPECT_EQ(runs[2], (PodRun{17, 1}));
}

TEST(FomapPropertyBlob, run_keeps_inner_zero_bytes) {
  const Bytes pod{1, 0, 0, 0, 1, 0, 0, 0};
  const auto runs = pod_runs(pod);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0], (PodRun{0, 8}));
}

TEST(FomapPropertyBlob, writes_the_full_mode_framing) {
  PropertyData d;
  d.pod = Bytes{0, 0, 0, 0, 7, 0, 0, 0};
  d.complex = {Bytes{}, Bytes{'h', 'i'}};
  const Bytes blob = write_property_blob(d);
  const Bytes expected{8, 0, 0, 0, 0,                          // pod size, has_base
                       4, 0, 0, 0, 4,   0,  0, 0, 7, 0, 0, 0,  // run at 4, len 4
                       0, 0, 0, 0, 0,   0,  0, 0,              // terminator
                       2, 0, 0, 0,                             // complex count
                       0, 0, 0, 0,                             // empty
                       2, 0, 0, 0, 'h', 'i'};
  EXPECT_EQ(blob, expected);
  auto back = read_property_blob(blob, 8, 2);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, d);
}

TEST(FomapPropertyBlob, empty_state_is_pod_size_and_counts_only) {
  PropertyData d;
  d.pod = Bytes(16, 0);
  d.complex.resize(3);
  const Bytes blob = write_property_blob(d);
  EXPECT_EQ(blob.size(), 4u + 1 + 8 + 4 + 3 * 4);
  auto back = read_property_blob(blob, 16, 3);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, d);
}

TEST(FomapPropertyBlob, rejects_pod_size_of_another_registrar) {
  PropertyData d;
  d.pod = Bytes(8, 0);
  auto r = read_property_blob(write_property_blob(d), 16, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "fomap.blob.pod_size");
}

TEST(FomapPropertyBlob, rejects_run_outside_pod_image) {
  const Bytes blob{4, 0, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  auto r = read_property_blob(blob, 4, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "fomap.blob.run");
}

TEST(FomapPropertyBlob, rejects_overlay_blob) {
  const Bytes blob{0, 0, 0, 0, 1};
  auto r = read_property_blob(blob, 0, 0);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "fomap.blob.overlay");
}

TEST(FomapComplexWriter, aligns_scalars_to_their_size_up_to_eight) {
  ComplexWriter w;
  w.u8(1);
  w.u16(2);        // at 2
  w.u8(3);         // at 4
  w.u64(4);        // at 8
  w.string("ab");  // len at 16, bytes 20..21
  w.u32(5);        // at 24
  const Bytes b = w.take();
  ASSERT_EQ(b.size(), 28u);
  EXPECT_EQ(b[2], 2);
  EXPECT_EQ(b[4], 3);
  EXPECT_EQ(b[8], 4);
  EXPECT_EQ(b[16], 2);
  EXPECT_EQ(b[20], 'a');
  EXPECT_EQ(b[24], 5);
}

}  // namespace
}  // namespace sortie::fomap
