#include "sortie/core/text.hpp"

#include <gtest/gtest.h>

using namespace sortie::core;

TEST(Cp1251, decodes_cyrillic_and_punctuation) {
  // "Привет" + em dash + No sign
  const std::string cp("\xcf\xf0\xe8\xe2\xe5\xf2\x97\xb9", 8);
  const auto d = cp1251_to_utf8(cp);
  EXPECT_TRUE(d.lossless);
  EXPECT_EQ(d.utf8, "Привет—№");
}

TEST(Cp1251, every_assigned_byte_round_trips) {
  for (int b = 1; b < 256; ++b) {
    if (b == 0x98) continue;
    const std::string one(1, static_cast<char>(b));
    const auto d = cp1251_to_utf8(one);
    const auto back = utf8_to_cp1251(d.utf8);
    ASSERT_TRUE(back.has_value()) << b;
    EXPECT_EQ(*back, one) << b;
  }
}

TEST(Cp1251, unassigned_byte_is_reported_lossy) {
  const auto d = cp1251_to_utf8(
      "a\x98"
      "b");
  EXPECT_FALSE(d.lossless);
  EXPECT_EQ(d.utf8,
            "a\xef\xbf\xbd"
            "b");
}

TEST(Cp1251, rejects_text_outside_the_code_page) {
  EXPECT_FALSE(utf8_to_cp1251("日本").has_value());
  EXPECT_FALSE(utf8_to_cp1251("\xc0\x80").has_value());  // overlong NUL
  EXPECT_FALSE(utf8_to_cp1251("\xe2\x82").has_value());  // truncated
  EXPECT_EQ(*utf8_to_cp1251("Ёж"), std::string("\xa8\xe6"));
}

TEST(AsciiFold, folds_only_ascii) {
  EXPECT_EQ(ascii_upper("MiXeD_\xe0"), "MIXED_\xe0");
  EXPECT_TRUE(iequals_ascii("alpha", "ALPHA"));
  EXPECT_FALSE(iequals_ascii("\xe0", "\xc0"));
  EXPECT_LT(icompare_ascii("abc", "ABD"), 0);
  EXPECT_LT(icompare_ascii("ab", "ABC"), 0);  // proper prefix first
  EXPECT_EQ(icompare_ascii("Zulu", "zULU"), 0);
  EXPECT_GT(icompare_ascii("_", "a"), 0);  // '_' (0x5F) > 'A' (0x41) after fold
  EXPECT_TRUE(iends_with_ascii("foo.SCR", ".scr"));
}
