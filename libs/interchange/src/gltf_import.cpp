#include "sortie/interchange/gltf_import.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

#include "sortie/core/file_io.hpp"
#include "sortie/render/image_io.hpp"
#include "tinygltf_config.hpp"

namespace sortie::interchange {
namespace {

core::Diagnostic error(std::string code, std::string message) {
  return core::Diagnostic::error(std::move(code), std::move(message));
}

// ---- loading (tinygltf with our own image loader and file access) ---------------------------

struct LoadContext {
  GltfImportLimits limits;
  std::filesystem::path base_dir;
  std::map<int, iron3d::Rgba8Image> images;  // decoded by the callback, by image index
};

core::Result<iron3d::Rgba8Image> decode_image(core::ByteView bytes, const GltfImportLimits& limits, int index) {
  render::PngReadLimits png_limits;
  png_limits.max_side = limits.max_texture_side;
  auto png = render::decode_png(bytes, png_limits);
  if (!png)
    return core::fail(
        error("gltf.image", fmt::format("image {}: {} (only PNG images are read)", index, png.error().message)));
  return iron3d::Rgba8Image{png->width, png->height, std::move(png->rgba)};
}

// tinygltf's image callback. An image in a buffer view is only noted here: tinygltf hands over
// the view's bytes without checking the view against its buffer, so those are decoded after the
// load (decode_buffer_view_images), once the range is checked. A data-URI image arrives decoded
// into tinygltf's own vector and is read at once.
bool load_image(tinygltf::Image* image, const int index, std::string* err, std::string*, int, int,
                const unsigned char* bytes, int size, void* user) {
  if (image->bufferView >= 0) return true;
  auto* ctx = static_cast<LoadContext*>(user);
  auto decoded = decode_image(core::ByteView(bytes, static_cast<std::size_t>(std::max(size, 0))), ctx->limits, index);
  if (!decoded) {
    if (err != nullptr) *err += decoded.error().message;
    return false;
  }
  ctx->images[index] = std::move(*decoded);
  return true;
}

bool file_exists(const std::string& path, void* user) {
  const auto* ctx = static_cast<LoadContext*>(user);
  std::error_code ec;
  return !ctx->base_dir.empty() && std::filesystem::is_regular_file(path, ec);
}

std::string expand_path(const std::string& path, void*) {
  return path;
}

// A relative buffer file of a .gltf: inside base_dir (no absolute path, no ".."), bounded.
bool read_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
  const auto* ctx = static_cast<LoadContext*>(user);
  const std::filesystem::path p(path);
  const std::filesystem::path rel = p.lexically_relative(ctx->base_dir);
  if (ctx->base_dir.empty() || rel.empty() || rel.is_absolute() || *rel.begin() == "..") {
    if (err != nullptr) *err += fmt::format("'{}': only files beside the .gltf are read", path);
    return false;
  }
  auto bytes = core::read_file(p, ctx->limits.max_file_bytes);
  if (!bytes) {
    if (err != nullptr) *err += bytes.error().message;
    return false;
  }
  out->assign(bytes->begin(), bytes->end());
  return true;
}

bool no_write(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err != nullptr) *err = "the importer writes no files";
  return false;
}

core::Result<tinygltf::Model> parse(const GltfSource& source, LoadContext& ctx) {
  if (source.bytes.size() > ctx.limits.max_file_bytes)
    return core::fail(error("gltf.limit", "the file is larger than the importer reads")
                          .expect(fmt::format("<= {} bytes", ctx.limits.max_file_bytes),
                                  fmt::format("{} bytes", source.bytes.size())));
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&load_image, &ctx);
  loader.SetFsCallbacks({&file_exists, &expand_path, &read_file, &no_write, &ctx});
  tinygltf::Model model;
  std::string err, warn;
  const bool binary = source.bytes.size() >= 4 && std::memcmp(source.bytes.data(), "glTF", 4) == 0;
  const std::string base = source.base_dir.empty() ? std::string() : source.base_dir.string();
  const auto size = static_cast<unsigned int>(source.bytes.size());
  const bool ok = binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, source.bytes.data(), size, base)
                         : loader.LoadASCIIFromString(&model, &err, &warn,
                                                      reinterpret_cast<const char*>(source.bytes.data()), size, base);
  if (!ok) {
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    for (char& c : err)
      if (c == '\n') c = ';';
    return core::fail(error("gltf.parse", fmt::format("not a glTF 2.0 model tinygltf can read: {}",
                                                      err.empty() ? std::string("(no reason given)") : err)));
  }
  return model;
}

core::Status decode_buffer_view_images(const tinygltf::Model& m, LoadContext& ctx) {
  for (std::size_t i = 0; i < m.images.size(); ++i) {
    const auto& image = m.images[i];
    if (image.bufferView < 0) continue;
    const auto where = fmt::format("image {}", i);
    if (static_cast<std::size_t>(image.bufferView) >= m.bufferViews.size())
      return core::fail(error("gltf.image", where + ": no such buffer view"));
    const auto& view = m.bufferViews[static_cast<std::size_t>(image.bufferView)];
    if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= m.buffers.size())
      return core::fail(error("gltf.image", where + ": no such buffer"));
    const auto& data = m.buffers[static_cast<std::size_t>(view.buffer)].data;
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset)
      return core::fail(
          error("gltf.image", where + ": the buffer view runs past its buffer")
              .expect(fmt::format("<= {} bytes", data.size()), fmt::format("{}+{}", view.byteOffset, view.byteLength)));
    SORTIE_TRY(auto decoded, decode_image(core::ByteView(data.data() + view.byteOffset, view.byteLength), ctx.limits,
                                          static_cast<int>(i)));
    ctx.images[static_cast<int>(i)] = std::move(decoded);
  }
  return {};
}

// ---- accessors, bounded ---------------------------------------------------------------------

std::size_t component_size(int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;
  }
}

std::size_t component_count(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
      return 4;
    default:
      return 0;
  }
}

// The bytes of an accessor's elements, each `stride` apart; every range checked in 64 bits.
struct AccessorView {
  const std::uint8_t* data = nullptr;
  std::size_t count = 0, stride = 0;
  int component_type = 0;
  bool normalized = false;
};

core::Result<AccessorView> accessor_view(const tinygltf::Model& m, int index, std::size_t components,
                                         std::uint64_t max_count, const std::string& what) {
  const auto fail = [&](std::string message, std::string expected, std::string found) {
    return core::fail(error("gltf.accessor", fmt::format("{}: {}", what, message)).expect(expected, found));
  };
  if (index < 0 || static_cast<std::size_t>(index) >= m.accessors.size())
    return fail("no such accessor", fmt::format("< {}", m.accessors.size()), fmt::format("{}", index));
  const auto& a = m.accessors[static_cast<std::size_t>(index)];
  if (a.sparse.isSparse) return fail("sparse accessors are not read", "a dense accessor", "sparse");
  if (component_count(a.type) != components)
    return fail("wrong element type", fmt::format("{} components", components), fmt::format("type {}", a.type));
  const std::size_t csize = component_size(a.componentType);
  if (csize == 0) return fail("unknown component type", "5120..5126", fmt::format("{}", a.componentType));
  if (a.count > max_count)
    return fail("too many elements", fmt::format("<= {}", max_count), fmt::format("{}", a.count));
  if (a.bufferView < 0 || static_cast<std::size_t>(a.bufferView) >= m.bufferViews.size())
    return fail("no buffer view", fmt::format("< {}", m.bufferViews.size()), fmt::format("{}", a.bufferView));
  const auto& v = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  if (v.buffer < 0 || static_cast<std::size_t>(v.buffer) >= m.buffers.size())
    return fail("no buffer", fmt::format("< {}", m.buffers.size()), fmt::format("{}", v.buffer));
  const auto& buffer = m.buffers[static_cast<std::size_t>(v.buffer)].data;
  const std::uint64_t view_end = static_cast<std::uint64_t>(v.byteOffset) + v.byteLength;
  if (v.byteOffset > buffer.size() || view_end > buffer.size())
    return fail("the buffer view runs past its buffer", fmt::format("<= {} bytes", buffer.size()),
                fmt::format("{}+{}", v.byteOffset, v.byteLength));
  const std::size_t element = csize * components;
  const std::size_t stride = v.byteStride != 0 ? v.byteStride : element;
  if (stride < element || stride > 252)
    return fail("a byte stride smaller than an element", fmt::format(">= {}", element), fmt::format("{}", stride));
  if (a.count > 0) {
    const std::uint64_t last = static_cast<std::uint64_t>(a.byteOffset) + (a.count - 1) * stride + element;
    if (last > v.byteLength)
      return fail("the elements run past the buffer view", fmt::format("<= {} bytes", v.byteLength),
                  fmt::format("{} bytes", last));
  }
  return AccessorView{buffer.data() + v.byteOffset + a.byteOffset, a.count, stride, a.componentType, a.normalized};
}

float component(const AccessorView& v, std::size_t i, std::size_t c) {
  const std::uint8_t* p = v.data + i * v.stride + c * component_size(v.component_type);
  switch (v.component_type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return v.normalized ? static_cast<float>(*p) / 255.0f : static_cast<float>(*p);
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      const auto s = static_cast<std::int8_t>(*p);
      return v.normalized ? std::max(static_cast<float>(s) / 127.0f, -1.0f) : static_cast<float>(s);
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t u;
      std::memcpy(&u, p, 2);
      return v.normalized ? static_cast<float>(u) / 65535.0f : static_cast<float>(u);
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      std::int16_t s;
      std::memcpy(&s, p, 2);
      return v.normalized ? std::max(static_cast<float>(s) / 32767.0f, -1.0f) : static_cast<float>(s);
    }
    default: {
      std::uint32_t u;
      std::memcpy(&u, p, 4);
      return static_cast<float>(u);
    }
  }
}

std::uint32_t index_at(const AccessorView& v, std::size_t i) {
  const std::uint8_t* p = v.data + i * v.stride;
  switch (v.component_type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return *p;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t u;
      std::memcpy(&u, p, 2);
      return u;
    }
    default: {
      std::uint32_t u;
      std::memcpy(&u, p, 4);
      return u;
    }
  }
}

// ---- scene walk ----------------------------------------------------------------------------

using Mat = std::array<double, 16>;  // column-major, as glTF

Mat identity() {
  Mat m{};
  m[0] = m[5] = m[10] = m[15] = 1;
  return m;
}

Mat multiply(const Mat& a, const Mat& b) {
  Mat r{};
  for (int c = 0; c < 4; ++c)
    for (int rr = 0; rr < 4; ++rr) {
      double s = 0;
      for (int k = 0; k < 4; ++k) s += a[static_cast<std::size_t>(k * 4 + rr)] * b[static_cast<std::size_t>(c * 4 + k)];
      r[static_cast<std::size_t>(c * 4 + rr)] = s;
    }
  return r;
}

Mat local_matrix(const tinygltf::Node& n) {
  if (n.matrix.size() == 16) {
    Mat m;
    std::copy(n.matrix.begin(), n.matrix.end(), m.begin());
    return m;
  }
  Mat t = identity(), r = identity(), s = identity();
  if (n.translation.size() == 3) t[12] = n.translation[0], t[13] = n.translation[1], t[14] = n.translation[2];
  if (n.rotation.size() == 4) {
    const double x = n.rotation[0], y = n.rotation[1], z = n.rotation[2], w = n.rotation[3];
    r[0] = 1 - 2 * (y * y + z * z), r[1] = 2 * (x * y + z * w), r[2] = 2 * (x * z - y * w);
    r[4] = 2 * (x * y - z * w), r[5] = 1 - 2 * (x * x + z * z), r[6] = 2 * (y * z + x * w);
    r[8] = 2 * (x * z + y * w), r[9] = 2 * (y * z - x * w), r[10] = 1 - 2 * (x * x + y * y);
  }
  if (n.scale.size() == 3) s[0] = n.scale[0], s[5] = n.scale[1], s[10] = n.scale[2];
  return multiply(t, multiply(r, s));
}

struct Walker {
  const tinygltf::Model& m;
  const GltfImportLimits& limits;
  std::vector<std::pair<int, Mat>> mesh_nodes;  // mesh index, world matrix (Iron3D space)
  std::vector<int> state;                       // 0 unseen, 1 on the path, 2 done

  core::Status walk(int index, const Mat& parent, std::uint32_t depth) {
    if (index < 0 || static_cast<std::size_t>(index) >= m.nodes.size())
      return core::fail(error("gltf.node", "a node index past the node list")
                            .expect(fmt::format("< {}", m.nodes.size()), fmt::format("{}", index)));
    if (depth > limits.max_depth)
      return core::fail(error("gltf.node", "the node hierarchy is deeper than the importer follows")
                            .expect(fmt::format("<= {}", limits.max_depth), fmt::format("{}", depth)));
    auto& st = state[static_cast<std::size_t>(index)];
    if (st != 0)
      return core::fail(error("gltf.node", fmt::format("node {} is reached twice (a cycle or a shared child)", index)));
    st = 1;
    const auto& node = m.nodes[static_cast<std::size_t>(index)];
    const Mat world = multiply(parent, local_matrix(node));
    if (node.mesh >= 0) mesh_nodes.emplace_back(node.mesh, world);
    for (int child : node.children) SORTIE_CHECK(walk(child, world, depth + 1));
    st = 2;
    return {};
  }
};

// glTF's Y up back to Iron3D's Z up: (x, y, z) -> (x, -z, y).
Mat y_up_to_z_up() {
  Mat m{};
  m[0] = 1;   // x -> x
  m[6] = 1;   // y -> z
  m[9] = -1;  // z -> -y
  m[15] = 1;
  return m;
}

core::Vec3 apply_point(const Mat& m, float fx, float fy, float fz) {
  const auto x = static_cast<double>(fx), y = static_cast<double>(fy), z = static_cast<double>(fz);
  return {static_cast<float>(m[0] * x + m[4] * y + m[8] * z + m[12]),
          static_cast<float>(m[1] * x + m[5] * y + m[9] * z + m[13]),
          static_cast<float>(m[2] * x + m[6] * y + m[10] * z + m[14])};
}

// Normals through the inverse transpose of the upper 3x3 (cofactors; the scale drops out).
core::Vec3 apply_normal(const Mat& m, float fx, float fy, float fz) {
  const auto x = static_cast<double>(fx), y = static_cast<double>(fy), z = static_cast<double>(fz);
  const auto at = [&](int r, int c) { return m[static_cast<std::size_t>(c * 4 + r)]; };
  double cof[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      cof[r][c] = at((r + 1) % 3, (c + 1) % 3) * at((r + 2) % 3, (c + 2) % 3) -
                  at((r + 1) % 3, (c + 2) % 3) * at((r + 2) % 3, (c + 1) % 3);
  double n[3] = {cof[0][0] * x + cof[0][1] * y + cof[0][2] * z, cof[1][0] * x + cof[1][1] * y + cof[1][2] * z,
                 cof[2][0] * x + cof[2][1] * y + cof[2][2] * z};
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(len > 0)) return {0, 0, 1};
  return {static_cast<float>(n[0] / len), static_cast<float>(n[1] / len), static_cast<float>(n[2] / len)};
}

bool mirrors(const Mat& m) {
  const double det =
      m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
  return det < 0;
}

}  // namespace

namespace {

// extras.sortie of an exported material: the MAT0 and the texture's Texm format.
void read_material_extras(const tinygltf::Material& gm, ImportedMaterial& out) {
  if (!gm.extras.IsObject() || !gm.extras.Has("sortie")) return;
  const tinygltf::Value& s = gm.extras.Get("sortie");
  const auto number = [](const tinygltf::Value& v, const char* key, std::uint32_t fallback) -> std::uint32_t {
    if (!v.Has(key) || !v.Get(key).IsNumber()) return fallback;
    const double d = v.Get(key).GetNumberAsDouble();
    return d >= 0 && d <= 4294967295.0 ? static_cast<std::uint32_t>(d) : fallback;
  };
  if (s.Has("texture") && s.Get("texture").IsObject()) {
    const auto& t = s.Get("texture");
    const std::uint32_t format = number(t, "format", 8888);
    if (iron3d::texm_bytes_per_pixel(format) != 0 && format != 0) out.texture_format = format;
    out.texture_levels = std::min<std::uint32_t>(number(t, "levels", 0), 32);
  }
  if (!s.Has("mat0") || !s.Get("mat0").IsObject()) return;
  const auto& j = s.Get("mat0");
  iron3d::Mat0 mat;
  mat.version =
      std::min<std::uint32_t>(number(j, "version", iron3d::kMat0MaxKnownVersion), iron3d::kMat0MaxKnownVersion);
  mat.metadata_a = static_cast<std::uint8_t>(std::min<std::uint32_t>(number(j, "metadata_a", 255), 255));
  mat.metadata_b = static_cast<std::uint8_t>(std::min<std::uint32_t>(number(j, "metadata_b", 255), 255));
  mat.metadata_c_raw = number(j, "metadata_c_raw", 0x3F800000u);
  mat.metadata_d_raw = number(j, "metadata_d_raw", 0);
  out.mat0_flags = number(j, "flags", 0);
  if (!j.Has("phases") || !j.Get("phases").IsArray()) return;
  const auto& phases = j.Get("phases");
  for (std::size_t i = 0; i < std::min<std::size_t>(phases.ArrayLen(), 64); ++i) {
    const auto& ph = phases.Get(static_cast<int>(i));
    iron3d::Mat0Phase phase;
    if (ph.Has("parameters") && ph.Get("parameters").IsString()) {
      const std::string hex = ph.Get("parameters").Get<std::string>();
      if (hex.size() == 36)
        for (std::size_t k = 0; k < 18; ++k) {
          const auto byte = std::strtoul(hex.substr(2 * k, 2).c_str(), nullptr, 16);
          phase.parameters[k] = static_cast<std::uint8_t>(byte);
        }
    }
    const bool textured =
        ph.Has("texture") && ph.Get("texture").IsString() && !ph.Get("texture").Get<std::string>().empty();
    phase.texture_name = core::FixedString::make(textured ? "*" : "", 16);  // named by build_model_entries
    mat.phases.push_back(phase);
  }
  if (!mat.phases.empty()) out.mat0 = std::move(mat);
}

// An untextured material's base colour (linear factors) as an 8 x 8 sRGB texture, so the engine,
// which draws materials through their textures, shows it; none for plain white.
std::optional<iron3d::Rgba8Image> solid_colour(const std::vector<double>& factor) {
  if (factor.size() != 4 || std::all_of(factor.begin(), factor.end(), [](double f) { return f >= 1.0; }))
    return std::nullopt;
  const auto srgb = [](double linear) {
    const double c = std::clamp(linear, 0.0, 1.0);
    const double v = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
    return static_cast<std::uint8_t>(std::lround(v * 255.0));
  };
  const std::array<std::uint8_t, 4> texel{
      srgb(factor[0]), srgb(factor[1]), srgb(factor[2]),
      static_cast<std::uint8_t>(std::lround(std::clamp(factor[3], 0.0, 1.0) * 255.0))};
  iron3d::Rgba8Image image{8, 8, {}};
  for (int i = 0; i < 64; ++i) image.pixels.insert(image.pixels.end(), texel.begin(), texel.end());
  return image;
}

struct Primitive {
  std::vector<core::Vec3> positions, normals;
  std::vector<std::array<float, 2>> uvs;
  std::vector<std::uint32_t> indices;
  int material = -1;
};

// Triangle lists from TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN index sequences.
std::vector<std::uint32_t> triangle_list(int mode, std::vector<std::uint32_t> seq) {
  if (mode == TINYGLTF_MODE_TRIANGLES || mode == -1) return seq;
  std::vector<std::uint32_t> out;
  for (std::size_t i = 2; i < seq.size(); ++i) {
    if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
      if (i % 2 == 0)
        out.insert(out.end(), {seq[i - 2], seq[i - 1], seq[i]});
      else
        out.insert(out.end(), {seq[i - 1], seq[i - 2], seq[i]});
    } else {
      out.insert(out.end(), {seq[0], seq[i - 1], seq[i]});
    }
  }
  return out;
}

core::Result<std::vector<std::uint32_t>> read_indices(const tinygltf::Model& m, const tinygltf::Primitive& p,
                                                      std::size_t vertex_count, const GltfImportLimits& limits,
                                                      const std::string& where) {
  std::vector<std::uint32_t> seq;
  if (p.indices >= 0) {
    SORTIE_TRY(const auto iv,
               accessor_view(m, p.indices, 1, std::uint64_t{3} * limits.max_triangles, where + " indices"));
    if (iv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
        iv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        iv.component_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
      return core::fail(error("gltf.accessor", fmt::format("{}: indices must be unsigned integers", where)));
    seq.reserve(iv.count);
    for (std::size_t i = 0; i < iv.count; ++i) {
      const std::uint32_t idx = index_at(iv, i);
      if (idx >= vertex_count)
        return core::fail(error("gltf.primitive", fmt::format("{}: index {} is past the vertices", where, i))
                              .expect(fmt::format("< {}", vertex_count), fmt::format("{}", idx)));
      seq.push_back(idx);
    }
  } else {
    if (vertex_count > std::uint64_t{3} * limits.max_triangles)
      return core::fail(error("gltf.limit", fmt::format("{}: too many vertices for one model", where)));
    for (std::size_t i = 0; i < vertex_count; ++i) seq.push_back(static_cast<std::uint32_t>(i));
  }
  auto list = triangle_list(p.mode, std::move(seq));
  if (list.size() % 3 != 0)
    return core::fail(error("gltf.primitive", fmt::format("{}: the index count is not whole triangles", where))
                          .expect("3n", fmt::format("{}", list.size())));
  return list;
}

// One primitive in Iron3D space, with only the vertices its triangles use.
core::Result<Primitive> read_primitive(const tinygltf::Model& m, const tinygltf::Primitive& p, const Mat& world,
                                       const GltfImportLimits& limits, const std::string& where) {
  const int mode = p.mode;
  if (mode != -1 && mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
      mode != TINYGLTF_MODE_TRIANGLE_FAN)
    return core::fail(error("gltf.primitive", fmt::format("{}: only triangle primitives are imported", where))
                          .expect("mode 4, 5 or 6 (triangles, strip, fan)", fmt::format("mode {}", mode)));
  const auto pos_it = p.attributes.find("POSITION");
  if (pos_it == p.attributes.end())
    return core::fail(error("gltf.primitive", fmt::format("{}: no POSITION attribute", where)));
  SORTIE_TRY(const auto pos, accessor_view(m, pos_it->second, 3, limits.max_vertices, where + " POSITION"));
  std::optional<AccessorView> nv, tv;
  if (auto it = p.attributes.find("NORMAL"); it != p.attributes.end()) {
    SORTIE_TRY(nv, accessor_view(m, it->second, 3, limits.max_vertices, where + " NORMAL"));
    if (nv->count != pos.count)
      return core::fail(error("gltf.accessor", fmt::format("{}: NORMAL count differs from POSITION", where))
                            .expect(fmt::format("{}", pos.count), fmt::format("{}", nv->count)));
  }
  if (auto it = p.attributes.find("TEXCOORD_0"); it != p.attributes.end()) {
    SORTIE_TRY(tv, accessor_view(m, it->second, 2, limits.max_vertices, where + " TEXCOORD_0"));
    if (tv->count != pos.count)
      return core::fail(error("gltf.accessor", fmt::format("{}: TEXCOORD_0 count differs from POSITION", where))
                            .expect(fmt::format("{}", pos.count), fmt::format("{}", tv->count)));
  }
  SORTIE_TRY(auto list, read_indices(m, p, pos.count, limits, where));
  Primitive out;
  out.material = p.material;
  std::vector<std::int32_t> remap(pos.count, -1);
  for (auto& idx : list) {
    auto& r = remap[idx];
    if (r < 0) {
      r = static_cast<std::int32_t>(out.positions.size());
      out.positions.push_back(
          apply_point(world, component(pos, idx, 0), component(pos, idx, 1), component(pos, idx, 2)));
      if (nv)
        out.normals.push_back(
            apply_normal(world, component(*nv, idx, 0), component(*nv, idx, 1), component(*nv, idx, 2)));
      if (tv) out.uvs.push_back({component(*tv, idx, 0), component(*tv, idx, 1)});
    }
    idx = static_cast<std::uint32_t>(r);
  }
  if (mirrors(world))  // a mirroring transform turns the winding
    for (std::size_t t = 0; t + 2 < list.size(); t += 3) std::swap(list[t + 1], list[t + 2]);
  out.indices = std::move(list);
  return out;
}

}  // namespace

core::Json ImportedModel::to_json() const {
  core::Json mats = core::Json::array();
  for (const auto& mat : materials)
    mats.push_back({{"name", mat.gltf_name},
                    {"texture", mat.base ? fmt::format("{}x{}", mat.base->width, mat.base->height) : std::string()},
                    {"texture_format", mat.texture_format},
                    {"mat0_from_extras", mat.mat0.has_value()}});
  return {{"vertices", positions.size()},
          {"triangles", triangles},
          {"batches", batches.size()},
          {"materials", std::move(mats)},
          {"primitives", source_primitives}};
}

core::Result<ImportedModel> read_gltf_model(const GltfSource& source, const GltfImportLimits& limits) {
  LoadContext ctx;
  ctx.limits = limits;
  ctx.base_dir = source.base_dir;
  SORTIE_TRY(const tinygltf::Model m, parse(source, ctx));
  SORTIE_CHECK(decode_buffer_view_images(m, ctx));
  if (m.nodes.size() > limits.max_nodes)
    return core::fail(error("gltf.limit", "too many nodes")
                          .expect(fmt::format("<= {}", limits.max_nodes), fmt::format("{}", m.nodes.size())));
  Walker walker{m, limits, {}, std::vector<int>(m.nodes.size(), 0)};
  const int scene = m.defaultScene >= 0 ? m.defaultScene : 0;
  if (static_cast<std::size_t>(scene) < m.scenes.size()) {
    for (int root : m.scenes[static_cast<std::size_t>(scene)].nodes) SORTIE_CHECK(walker.walk(root, y_up_to_z_up(), 0));
  } else {
    for (std::size_t i = 0; i < m.meshes.size(); ++i)
      walker.mesh_nodes.emplace_back(static_cast<int>(i), y_up_to_z_up());
  }
  // Primitives grouped by glTF material, in order of first use.
  std::vector<int> material_order;
  std::map<int, std::vector<Primitive>> by_material;
  ImportedModel out;
  for (const auto& [mesh_index, world] : walker.mesh_nodes) {
    if (mesh_index < 0 || static_cast<std::size_t>(mesh_index) >= m.meshes.size())
      return core::fail(error("gltf.node", "a node names a mesh past the mesh list")
                            .expect(fmt::format("< {}", m.meshes.size()), fmt::format("{}", mesh_index)));
    const auto& mesh = m.meshes[static_cast<std::size_t>(mesh_index)];
    for (std::size_t pi = 0; pi < mesh.primitives.size(); ++pi) {
      const std::string where = fmt::format("meshes[{}].primitives[{}]", mesh_index, pi);
      SORTIE_TRY(auto prim, read_primitive(m, mesh.primitives[pi], world, limits, where));
      if (prim.material >= 0 && static_cast<std::size_t>(prim.material) >= m.materials.size())
        return core::fail(error("gltf.primitive", where + ": a material past the material list"));
      if (!by_material.count(prim.material)) material_order.push_back(prim.material);
      by_material[prim.material].push_back(std::move(prim));
      ++out.source_primitives;
    }
  }
  if (material_order.size() > limits.max_materials)
    return core::fail(
        error("gltf.limit", "too many materials")
            .expect(fmt::format("<= {}", limits.max_materials), fmt::format("{}", material_order.size())));
  // Everything into one vertex list; every primitive keeps its own vertices.
  bool any_uv = false, all_normals = true;
  for (const auto& [mat, prims] : by_material)
    for (const auto& p : prims) any_uv |= !p.uvs.empty(), all_normals &= p.normals.size() == p.positions.size();
  for (std::size_t row = 0; row < material_order.size(); ++row) {
    const int gm = material_order[row];
    ImportedMaterial mat;
    if (gm >= 0) {
      const auto& g = m.materials[static_cast<std::size_t>(gm)];
      mat.gltf_name = g.name;
      const int tex = g.pbrMetallicRoughness.baseColorTexture.index;
      if (tex >= 0 && static_cast<std::size_t>(tex) < m.textures.size()) {
        const int src = m.textures[static_cast<std::size_t>(tex)].source;
        if (auto it = ctx.images.find(src); it != ctx.images.end()) mat.base = it->second;
      }
      if (!mat.base) mat.base = solid_colour(g.pbrMetallicRoughness.baseColorFactor);
      read_material_extras(g, mat);
    }
    out.materials.push_back(std::move(mat));
    for (const auto& p : by_material[gm]) {
      const auto base = out.positions.size();
      if (base + p.positions.size() > limits.max_vertices)
        return core::fail(
            error("gltf.limit", "the model has more vertices than one MSH holds")
                .expect(fmt::format("<= {}", limits.max_vertices), fmt::format("{}+", base + p.positions.size())));
      out.positions.insert(out.positions.end(), p.positions.begin(), p.positions.end());
      if (all_normals) out.normals.insert(out.normals.end(), p.normals.begin(), p.normals.end());
      if (any_uv) {
        if (p.uvs.empty())
          out.uvs.insert(out.uvs.end(), p.positions.size(), {0.0f, 0.0f});
        else
          out.uvs.insert(out.uvs.end(), p.uvs.begin(), p.uvs.end());
      }
      std::size_t done = 0;
      while (done < p.indices.size()) {  // batches hold at most 65,535 indices (u16)
        const std::size_t n = std::min<std::size_t>(p.indices.size() - done, 65535 / 3 * 3);
        iron3d::MshBuildBatch b;
        b.material_index = static_cast<std::uint16_t>(row);
        b.index_start = static_cast<std::uint32_t>(out.indices.size());
        b.index_count = static_cast<std::uint16_t>(n);
        for (std::size_t k = 0; k < n; ++k)
          out.indices.push_back(static_cast<std::uint16_t>(base + p.indices[done + k]));
        out.batches.push_back(b);
        done += n;
      }
      out.triangles += static_cast<std::uint32_t>(p.indices.size() / 3);
      if (out.triangles > limits.max_triangles)
        return core::fail(error("gltf.limit", "the model has more triangles than one MSH slot holds")
                              .expect(fmt::format("<= {}", limits.max_triangles), fmt::format("{}+", out.triangles)));
    }
  }
  if (out.triangles == 0) return core::fail(error("gltf.empty", "the default scene has no triangles"));
  return out;
}

}  // namespace sortie::interchange
