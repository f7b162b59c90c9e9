// Golden images: each case of render_fixtures.cpp is rendered and compared with
// tests/render/golden/<case>/expected.png (written by our own renderer once, reviewed by eye).
// SORTIE_UPDATE_GOLDEN=1 rewrites the files instead of comparing (and skips).
#include <gtest/gtest.h>

#include <filesystem>

#include "render_fixtures.hpp"
#include "sortie_test/golden_image.hpp"

namespace sortie::render::test {
namespace {

namespace fs = std::filesystem;

class Golden : public ::testing::TestWithParam<std::size_t> {};

// The rule is sortie_test/golden_image.hpp's (the same for every golden picture).
TEST_P(Golden, matches_expected_image) {
  const GoldenCase& c = golden_cases()[GetParam()];
  Scene scene = c.make();
  const Framebuffer fb = scene.render(1);
  SORTIE_EXPECT_GOLDEN_IMAGE(fb, fs::path(SORTIE_TEST_DATA_DIR) / "golden" / c.name / "expected.png", c.what);
}

std::string case_name(const ::testing::TestParamInfo<std::size_t>& info) {
  return golden_cases()[info.param].name;
}

INSTANTIATE_TEST_SUITE_P(Render, Golden, ::testing::Range<std::size_t>(0, golden_cases().size()), case_name);

}  // namespace
}  // namespace sortie::render::test
