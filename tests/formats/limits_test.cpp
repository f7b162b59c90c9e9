// formats/limits.hpp: content detection reads kSniffBytes. A marker that ends at the limit is
// found by content; one that ends a byte later leaves the file to its name (none here).
#include "sortie/formats/limits.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "sortie/formats/formats.hpp"

namespace sortie::formats {
namespace {

// Comment lines, then `marker` starting so that it ends `end` bytes into the file, then `rest`.
std::string ending_at(std::size_t end, std::string_view marker, std::string_view rest, char comment) {
  std::string text;
  const std::size_t start = end - marker.size();
  while (text.size() < start) {
    const std::size_t line = std::min<std::size_t>(80, start - text.size());
    if (line == 1) {
      text += '\n';
      continue;
    }
    text += comment;
    text += std::string(line - 2, 'c');
    text += '\n';
  }
  return text + std::string(marker) + std::string(rest);
}

}  // namespace

TEST(FormatsLimits, weather_sniff) {
  const FormatInfo* f = find_format("weather");
  ASSERT_NE(f, nullptr);
  // The magic word alone on its line is enough for content detection.
  const std::string at = ending_at(kSniffBytes, "sortie-weather", " 1\n", '#');
  EXPECT_EQ(f->detect(core::as_bytes(at), "renamed.txt"), kDetectContent);
  const std::string over = ending_at(kSniffBytes + 1, "sortie-weather", " 1\n", '#');
  EXPECT_EQ(f->detect(core::as_bytes(over), "renamed.txt"), kDetectNone);
}

TEST(FormatsLimits, sample_manifest_sniff) {
  const FormatInfo* f = find_format("sample_manifest");
  ASSERT_NE(f, nullptr);
  auto manifest = [](std::size_t end) {
    // {"generator_version": 1, "pad": "...", "objects_format": 1} with the last key ending at `end`.
    const std::string head = "{\"generator_version\": 1, \"pad\": \"";
    const std::string key = "\"objects_format\"";
    std::string text = head + std::string(end - key.size() - head.size() - 3, 'p') + "\", " + key;
    return text + ": 1}";
  };
  const std::string at = manifest(kSniffBytes);
  EXPECT_EQ(f->detect(core::as_bytes(at), "renamed.json"), kDetectContent);
  const std::string over = manifest(kSniffBytes + 1);
  EXPECT_EQ(f->detect(core::as_bytes(over), "renamed.json"), kDetectNone);
}

TEST(FormatsLimits, fomap_sniff) {
  const FormatInfo* f = find_format("fomap");
  ASSERT_NE(f, nullptr);
  // Blank lines, then the first section's '[' as the byte that ends at `end`.
  auto map = [](std::size_t end) {
    std::string text(end - 1, '\n');
    return text + "[ProtoMap]\n$Name = A\nSize = 10 10\n";
  };
  EXPECT_EQ(f->detect(core::as_bytes(map(1)), "renamed.txt"), kDetectContent);  // the ordinary case
  EXPECT_EQ(f->detect(core::as_bytes(map(kSniffBytes)), "renamed.txt"), kDetectContent);
  EXPECT_EQ(f->detect(core::as_bytes(map(kSniffBytes + 1)), "renamed.txt"), kDetectNone);
  EXPECT_EQ(f->detect(core::as_bytes(map(kSniffBytes + 1)), "a.fomap"), kDetectName);
}

}  // namespace sortie::formats
