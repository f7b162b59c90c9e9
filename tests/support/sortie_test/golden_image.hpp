#pragma once
// The one golden-image comparison of the test suites. A golden image is a PNG written once by our
// own renderer and reviewed by eye, kept as tests/<area>/golden/<case>/expected.png.
//
// The rule (every suite, every picture): a pixel differs when one of its colour channels (R, G,
// B; alpha is not compared) is more than kGoldenChannelTolerance away from the expected value,
// and at most one pixel in kGoldenDifferingPixelsPer (at least one pixel) may differ. The slack
// covers edge pixels that round the other way on another compiler or instruction set; a changed
// picture moves far more pixels than that.
//
// SORTIE_UPDATE_GOLDEN=1 in the environment rewrites the expected image instead of comparing,
// and the test is skipped (SORTIE_EXPECT_GOLDEN_IMAGE). On a mismatch the actual image is
// written to the test's temporary directory and named in the failure.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/render/framebuffer.hpp"

namespace sortie::test {

inline constexpr int kGoldenChannelTolerance = 2;
inline constexpr std::size_t kGoldenDifferingPixelsPer = 2000;

// An 8-bit RGBA picture, rows top to bottom.
struct Image {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgba;
};
// A PNG file's bytes decoded to RGBA (diagnostic code "test.png" when it is not a PNG).
core::Result<Image> decode_png(const std::vector<std::uint8_t>& bytes);
Image to_image(const render::Framebuffer& fb);

struct ImageDifference {
  std::size_t differing = 0;  // pixels with a channel beyond the tolerance
  std::size_t allowed = 0;    // what the rule lets differ for this size
  int worst = 0;              // largest channel difference seen
};
// Compares two pictures of the same size by the rule above.
ImageDifference compare_images(const Image& actual, const Image& expected);

struct GoldenCheck {
  bool regenerated = false;  // SORTIE_UPDATE_GOLDEN=1: the expected image was rewritten
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
};
// Compares `actual` with the PNG at `expected_png`; `what` says what a reviewer should see.
GoldenCheck check_golden_image(const render::Framebuffer& actual, const std::filesystem::path& expected_png,
                               const std::string& what = "");

}  // namespace sortie::test

// Compares a framebuffer with its golden PNG (skips the test after rewriting it on request).
#define SORTIE_EXPECT_GOLDEN_IMAGE(framebuffer, expected_png, ...)                                   \
  do {                                                                                               \
    const ::sortie::test::GoldenCheck sortie_golden_ =                                               \
        ::sortie::test::check_golden_image((framebuffer), (expected_png)__VA_OPT__(, ) __VA_ARGS__); \
    if (sortie_golden_.regenerated) GTEST_SKIP() << "regenerated " << (expected_png);                \
    EXPECT_TRUE(sortie_golden_.result);                                                              \
  } while (false)
