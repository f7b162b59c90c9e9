#pragma once
// Text forms of view settings shared by `sortie render` and `sortie-viewer`: image size
// "WxH", camera pose "X,Y,Z,YAW,PITCH" (degrees) and overlay lists "areals,routes,labels".
// Errors use code usage.<what> (exit 2 in the CLI) and name the option in `field`.
#include <cstdint>
#include <string_view>

#include "sortie/core/diagnostic.hpp"
#include "sortie/render/mission_scene.hpp"
#include "sortie/render/scene_camera.hpp"

namespace sortie::render {

struct ImageSize {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  friend constexpr bool operator==(const ImageSize&, const ImageSize&) = default;
};

// "1280x720": both sides whole numbers in 1..kMaxFramebufferSize. Code usage.size.
core::Result<ImageSize> parse_image_size(std::string_view text, std::string_view option = "--size");
// "X,Y,Z,YAW,PITCH": five finite numbers; yaw and pitch in degrees (yaw 0 = east, 90 = north;
// pitch above the horizon, -90..90). Code usage.camera.
core::Result<CameraPose> parse_camera_pose(std::string_view text, std::string_view option = "--camera");
// Comma-separated subset of areals, routes, labels (empty text: none). Code usage.overlay.
core::Result<MissionOverlays> parse_overlays(std::string_view text, std::string_view option = "--overlay");

}  // namespace sortie::render
