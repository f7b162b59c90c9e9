// The one translation unit with tinygltf's implementation (Debian's libtinygltf-dev ships the
// header; its README.Debian names this as one of the two ways to use it).
#define TINYGLTF_IMPLEMENTATION
#include "tinygltf_config.hpp"
