#include "sortie/render/view_spec.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "sortie/render/framebuffer.hpp"

namespace sortie::render {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

core::Diagnostic usage(std::string code, std::string_view option, std::string message, std::string expected,
                       std::string_view found) {
  return core::Diagnostic::error(std::move(code), std::move(message))
      .in(std::string(option))
      .expect(std::move(expected), std::string(found));
}

bool parse_float(std::string_view s, float& out) {
  if (s.empty()) return false;
  // strtof needs a terminated string; from_chars for float is not in every libstdc++ we support.
  const std::string copy(s);
  char* end = nullptr;
  errno = 0;
  out = std::strtof(copy.c_str(), &end);
  return end == copy.c_str() + copy.size() && errno == 0 && std::isfinite(out);
}

}  // namespace

core::Result<ImageSize> parse_image_size(std::string_view text, std::string_view option) {
  const std::string expected = fmt::format("WIDTHxHEIGHT, each 1..{}", kMaxFramebufferSize);
  const auto parts = split(text, 'x');
  if (parts.size() != 2) return core::fail(usage("usage.size", option, "not WIDTHxHEIGHT", expected, text));
  std::uint32_t v[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    const auto p = parts[static_cast<std::size_t>(i)];
    const auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), v[i]);
    if (p.empty() || ec != std::errc() || ptr != p.data() + p.size() || v[i] == 0 || v[i] > kMaxFramebufferSize)
      return core::fail(usage("usage.size", option, "side out of range", expected, text));
  }
  return ImageSize{v[0], v[1]};
}

core::Result<CameraPose> parse_camera_pose(std::string_view text, std::string_view option) {
  const std::string expected = "X,Y,Z,YAW,PITCH (finite numbers; degrees, pitch -90..90)";
  const auto parts = split(text, ',');
  if (parts.size() != 5) return core::fail(usage("usage.camera", option, "needs five numbers", expected, text));
  float v[5] = {};
  for (std::size_t i = 0; i < 5; ++i)
    if (!parse_float(parts[i], v[i]))
      return core::fail(
          usage("usage.camera", option, fmt::format("'{}' is not a finite number", parts[i]), expected, text));
  if (v[4] < -90.0f || v[4] > 90.0f)
    return core::fail(usage("usage.camera", option, "pitch out of range", expected, text));
  constexpr float kDeg = core::kPi / 180.0f;
  return CameraPose{{v[0], v[1], v[2]}, v[3] * kDeg, v[4] * kDeg};
}

core::Result<MissionOverlays> parse_overlays(std::string_view text, std::string_view option) {
  MissionOverlays o;
  if (text.empty()) return o;
  for (auto part : split(text, ',')) {
    if (part == "areals")
      o.areals = true;
    else if (part == "routes")
      o.routes = true;
    else if (part == "labels")
      o.labels = true;
    else
      return core::fail(usage("usage.overlay", option, fmt::format("unknown overlay '{}'", part),
                              "areals, routes, labels (comma-separated)", text));
  }
  return o;
}

}  // namespace sortie::render
