// Every limit of fomap/limits.hpp, fed at the limit (accepted) and one above (refused, or for the
// script index's namespace depth, not entered). The blob counts are declared in a header without
// their bytes: at the limit the reader passes the limit and stops at the end of the data
// (fomap.bin.eof), one above it stops at the limit.
#include "sortie/fomap/limits.hpp"

#include <gtest/gtest.h>

#include <string>

#include "sortie/core/bytes.hpp"
#include "sortie/fomap/map_blob.hpp"
#include "sortie/fomap/script_index.hpp"

using namespace sortie;
using namespace sortie::fomap;

namespace {

core::Bytes words(std::initializer_list<std::uint32_t> values) {
  core::ByteWriter w;
  for (std::uint32_t v : values) w.u32(v);
  return w.take();
}

void expect_blob_code(const core::Bytes& b, std::string_view code) {
  const auto server = read_server_blob(b, "m.fomap-bin-server");
  ASSERT_FALSE(server.has_value()) << "accepted, expected " << code;
  EXPECT_EQ(server.error().code, code) << server.error().to_string();
  const auto client = read_client_blob(b, "m.fomap-bin-client");
  ASSERT_FALSE(client.has_value()) << "accepted, expected " << code;
  EXPECT_EQ(client.error().code, code) << client.error().to_string();
}

}  // namespace

TEST(FomapLimits, blob_dictionary_count) {
  ASSERT_TRUE(read_client_blob(words({0, 0})).has_value());
  expect_blob_code(words({static_cast<std::uint32_t>(kMaxBlobCount)}), "fomap.bin.eof");
  expect_blob_code(words({static_cast<std::uint32_t>(kMaxBlobCount + 1)}), "fomap.bin.limit");
}

TEST(FomapLimits, blob_record_count) {
  expect_blob_code(words({0, static_cast<std::uint32_t>(kMaxBlobCount)}), "fomap.bin.eof");
  expect_blob_code(words({0, static_cast<std::uint32_t>(kMaxBlobCount + 1)}), "fomap.bin.limit");
}

TEST(FomapLimits, blob_dictionary_string) {
  expect_blob_code(words({1, kMaxBlobDictionaryString}), "fomap.bin.eof");
  expect_blob_code(words({1, kMaxBlobDictionaryString + 1}), "fomap.bin.string_too_long");
  // A string of exactly the limit, written by our writer, reads back.
  ClientMapBlob blob;
  blob.dictionary = {std::string(kMaxBlobDictionaryString, 's')};
  const auto back = read_client_blob(write_client_blob(blob));
  ASSERT_TRUE(back.has_value()) << back.error().to_string();
  EXPECT_EQ(back->dictionary.at(0).size(), kMaxBlobDictionaryString);
}

TEST(FomapLimits, script_namespace_depth) {
  auto nested = [](std::size_t depth) {
    std::string text;
    for (std::size_t i = 0; i < depth; ++i) text += "namespace N {\n";
    text += "void Deep(Critter& cr) {}\n";
    for (std::size_t i = 0; i < depth; ++i) text += "}\n";
    return text;
  };
  auto qualified = [](std::size_t depth) {
    std::string name;
    for (std::size_t i = 0; i < depth; ++i) name += "N::";
    return name + "Deep";
  };
  ScriptIndex at_limit;
  at_limit.add_source(nested(kMaxScriptNamespaceDepth), "deep.fos");
  EXPECT_NE(at_limit.find(qualified(kMaxScriptNamespaceDepth)), nullptr);
  EXPECT_EQ(at_limit.size(), 1u);
  ScriptIndex over;
  over.add_source(nested(kMaxScriptNamespaceDepth + 1), "deeper.fos");
  EXPECT_EQ(over.size(), 0u);
}
