// Golden images: each case of render_fixtures.cpp is rendered and compared with
// tests/render/golden/<case>/expected.png (written by our own renderer once, reviewed by eye).
// SORTIE_UPDATE_GOLDEN=1 rewrites the files instead of comparing (and skips).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "render_fixtures.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/render/image_io.hpp"

namespace sortie::render::test {
namespace {

namespace fs = std::filesystem;

// A pixel differs when a colour channel differs by more than kChannelTolerance; at most one
// pixel in kDifferingPixelsPer may differ (edge pixels that round the other way).
constexpr int kChannelTolerance = 2;
constexpr std::size_t kDifferingPixelsPer = 2000;

class Golden : public ::testing::TestWithParam<std::size_t> {};

TEST_P(Golden, matches_expected_image) {
  const GoldenCase& c = golden_cases()[GetParam()];
  Scene scene = c.make();
  const Framebuffer fb = scene.render(1);
  const fs::path dir = fs::path(SORTIE_TEST_DATA_DIR) / "golden" / c.name;
  const fs::path expected_path = dir / "expected.png";
  const char* update = std::getenv("SORTIE_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    fs::create_directories(dir);
    ASSERT_TRUE(write_png(expected_path, fb));
    GTEST_SKIP() << "regenerated " << expected_path << " (" << c.what << ")";
  }
  const auto bytes = core::read_file(expected_path);
  ASSERT_TRUE(bytes) << bytes.error().to_string() << " (SORTIE_UPDATE_GOLDEN=1 writes it)";
  const auto expected = decode_png(*bytes);
  ASSERT_TRUE(expected) << expected.error().to_string();
  ASSERT_EQ(expected->width, fb.width());
  ASSERT_EQ(expected->height, fb.height());
  const Image actual = to_image(fb);
  std::size_t differing = 0;
  int worst = 0;
  for (std::size_t i = 0; i < actual.rgba.size(); i += 4) {
    int d = 0;
    for (int ch = 0; ch < 3; ++ch) d = std::max(d, std::abs(int{actual.rgba[i + ch]} - int{expected->rgba[i + ch]}));
    worst = std::max(worst, d);
    if (d > kChannelTolerance) ++differing;
  }
  const std::size_t pixels = actual.rgba.size() / 4;
  const std::size_t allowed = std::max<std::size_t>(1, pixels / kDifferingPixelsPer);
  if (differing > allowed) {
    const fs::path out = fs::path(::testing::TempDir()) / (c.name + "_actual.png");
    (void)write_png(out, fb);
    ADD_FAILURE() << c.name << ": " << differing << " pixels differ by more than " << kChannelTolerance << " (allowed "
                  << allowed << ", worst " << worst << "); actual image: " << out << "; expected: " << c.what;
  }
}

std::string case_name(const ::testing::TestParamInfo<std::size_t>& info) {
  return golden_cases()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(Render, Golden, ::testing::Range<std::size_t>(0, golden_cases().size()), case_name);

}  // namespace
}  // namespace sortie::render::test
