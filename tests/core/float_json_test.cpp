// core::f32_json / f64_json (json.hpp): a float written as JSON data reads back to the same bits,
// through the text, for the values a world holds and the ones JSON has no number for.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>

#include "sortie/core/json.hpp"
#include "sortie/core/rng.hpp"

namespace sortie::core {
namespace {

float read_back_f32(const Json& written) {
  const Json j = Json::parse(written.dump());
  if (j.is_string())
    return std::bit_cast<float>(static_cast<std::uint32_t>(std::stoul(j.get<std::string>().substr(4), nullptr, 16)));
  return static_cast<float>(j.get<double>());
}

TEST(FloatJson, f32_values_read_back_to_the_same_bits) {
  const float specials[] = {0.0f,
                            -0.0f,
                            0.1f,
                            12.5f,
                            4.25f,
                            -3.14159265f,
                            1e-45f,
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::lowest(),
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  for (const float v : specials)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(read_back_f32(f32_json(v))), std::bit_cast<std::uint32_t>(v)) << v;
  Rng rng(7, 1);
  for (int i = 0; i < 200000; ++i) {
    const float v = std::bit_cast<float>(rng.next_u32());
    ASSERT_EQ(std::bit_cast<std::uint32_t>(read_back_f32(f32_json(v))), std::bit_cast<std::uint32_t>(v)) << v;
  }
  // The shortest text, not the double's 17 digits.
  EXPECT_EQ(f32_json(0.1f).dump(), "0.1");
  EXPECT_EQ(f32_json(std::numeric_limits<float>::infinity()), Json("f32:7f800000"));
}

TEST(FloatJson, f64_values_read_back_to_the_same_bits) {
  for (const double v : {0.0, -0.0, 0.1, 1e300, -2.5e-310}) {
    const Json j = Json::parse(f64_json(v).dump());
    EXPECT_EQ(std::bit_cast<std::uint64_t>(j.get<double>()), std::bit_cast<std::uint64_t>(v)) << v;
  }
  EXPECT_EQ(f64_json(std::numeric_limits<double>::quiet_NaN()), Json("f64:7ff8000000000000"));
}

TEST(FloatJson, text_that_is_not_utf8_is_kept_as_hex) {
  EXPECT_EQ(bytes_text_json("depot"), Json("depot"));
  EXPECT_EQ(bytes_text_json("\xd0\xb4\xd0\xb5"), Json("\xd0\xb4\xd0\xb5"));  // "де"
  EXPECT_EQ(bytes_text_json("\xe4\xe5"), (Json{{"hex", "e4e5"}}));           // CP1251 "де"
  EXPECT_FALSE(is_valid_utf8("\xc0\x80"));                                   // overlong
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));                               // a surrogate
  EXPECT_FALSE(is_valid_utf8("\xe2\x82"));                                   // cut short
}

}  // namespace
}  // namespace sortie::core
