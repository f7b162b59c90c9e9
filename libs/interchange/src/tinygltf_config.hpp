#pragma once
// tinygltf as libs/interchange uses it, in every file that includes it (its class layout and
// inline defaults depend on these macros, so every translation unit must see the same ones):
// no stb, images go through libpng (render::encode_png / decode_png) and our own loader.
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>
