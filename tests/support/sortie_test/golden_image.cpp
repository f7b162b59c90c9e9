#include "sortie_test/golden_image.hpp"

#include <png.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "sortie/core/file_io.hpp"
#include "sortie/render/image_io.hpp"

namespace sortie::test {

namespace fs = std::filesystem;

core::Result<Image> decode_png(const std::vector<std::uint8_t>& bytes) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    return core::fail(core::Diagnostic::error("test.png", image.message));
  image.format = PNG_FORMAT_RGBA;
  Image out;
  out.width = image.width;
  out.height = image.height;
  out.rgba.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr)) {
    png_image_free(&image);
    return core::fail(core::Diagnostic::error("test.png", image.message));
  }
  return out;
}

Image to_image(const render::Framebuffer& fb) {
  Image img;
  img.width = fb.width();
  img.height = fb.height();
  const auto bytes = fb.rgba_bytes();
  img.rgba.assign(bytes.begin(), bytes.end());
  return img;
}

ImageDifference compare_images(const Image& actual, const Image& expected) {
  ImageDifference d;
  const std::size_t pixels = actual.rgba.size() / 4;
  d.allowed = std::max<std::size_t>(1, pixels / kGoldenDifferingPixelsPer);
  for (std::size_t i = 0; i + 3 < actual.rgba.size() && i + 3 < expected.rgba.size(); i += 4) {
    int worst = 0;
    for (std::size_t ch = 0; ch < 3; ++ch)
      worst = std::max(worst, std::abs(int{actual.rgba[i + ch]} - int{expected.rgba[i + ch]}));
    d.worst = std::max(d.worst, worst);
    if (worst > kGoldenChannelTolerance) ++d.differing;
  }
  return d;
}

GoldenCheck check_golden_image(const render::Framebuffer& actual, const fs::path& expected_png,
                               const std::string& what) {
  GoldenCheck out;
  if (const char* update = std::getenv("SORTIE_UPDATE_GOLDEN"); update != nullptr && std::string_view(update) == "1") {
    fs::create_directories(expected_png.parent_path());
    const auto written = render::write_png(expected_png, actual);
    out.regenerated = written.has_value();
    if (!written) out.result = ::testing::AssertionFailure() << written.error().to_string();
    return out;
  }
  const auto bytes = core::read_file(expected_png);
  if (!bytes) {
    out.result = ::testing::AssertionFailure() << bytes.error().to_string() << " (SORTIE_UPDATE_GOLDEN=1 writes it)";
    return out;
  }
  const auto expected = decode_png(*bytes);
  if (!expected) {
    out.result = ::testing::AssertionFailure() << expected_png << ": " << expected.error().to_string();
    return out;
  }
  if (expected->width != actual.width() || expected->height != actual.height()) {
    out.result = ::testing::AssertionFailure() << expected_png << " is " << expected->width << "x" << expected->height
                                               << ", the picture " << actual.width() << "x" << actual.height();
    return out;
  }
  const ImageDifference d = compare_images(to_image(actual), *expected);
  if (d.differing > d.allowed) {
    const fs::path dir = expected_png.parent_path();
    const fs::path written = fs::path(::testing::TempDir()) / (dir.filename().string() + "_actual.png");
    (void)render::write_png(written, actual);
    out.result = ::testing::AssertionFailure()
                 << d.differing << " pixels differ by more than " << kGoldenChannelTolerance << " (allowed "
                 << d.allowed << ", worst " << d.worst << ") from " << expected_png << "; actual image: " << written
                 << (what.empty() ? "" : "; expected: ") << what;
  }
  return out;
}

}  // namespace sortie::test
