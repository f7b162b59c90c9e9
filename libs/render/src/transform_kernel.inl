// The vertex stage's arithmetic, written once over a lane policy T: four SSE2 lanes (simd.hpp,
// geometry.cpp) or sixteen AVX-512 lanes (simd16.hpp, geometry_avx512.cpp, on CPUs that have
// them). Every lane computes the same operations in the same order as the scalar helpers
// (outcode, to_window) do for clipped vertices, so every width gives the same bits.
//
// T provides the lane types F and I, kLanes, fs / is (a value in every lane), the loads of kLanes
// consecutive mesh elements from the i-th (lanes past the n-th are computed and never stored),
// and store, which writes the first n lanes' ClipVertex records (five groups of four values) and
// VertexKeys. The including file includes pipeline.hpp and T's vocabulary first, and includes
// this inside an unnamed namespace of its own (each width its own copy, compiled for its target).

template <class T>
void transform_lanes(const DrawState& d, const FrameGeometry& g, std::size_t begin, std::size_t end, ClipVertex* out,
                     VertexKey* keys) {
  using F = typename T::F;
  using I = typename T::I;
  const MeshView& m = d.call->mesh;
  const Material& mat = d.call->material;
  const bool has_uv = !m.uvs.empty();
  const bool has_color = !m.colors.empty();
  const bool lit = mat.lit && m.primitive == Primitive::triangles;
  const auto& M = d.mvp.m;
  const auto& N = d.normal_matrix.m;
  const F zero = T::fs(0.0f), one = T::fs(1.0f), half = T::fs(0.5f);
  const F inv255 = T::fs(1.0f / 255.0f);
  const I byte = T::is(0xFF);
  const auto& vp = g.viewport;
  const F vx = T::fs(static_cast<float>(vp.x)), vw = T::fs(static_cast<float>(vp.width));
  const F vy = T::fs(static_cast<float>(vp.y)), vh = T::fs(static_cast<float>(vp.height));
  const F cx0 = T::fs(g.clamp_x0), cx1 = T::fs(g.clamp_x1), cy0 = T::fs(g.clamp_y0), cy1 = T::fs(g.clamp_y1);
  const F sub = T::fs(static_cast<float>(kSubpixel)), bias = T::fs(mat.depth_bias), k255 = T::fs(255.0f);
  auto finite = [](F x) { return cmpeq(x - x, T::fs(0.0f)); };
  auto bit = [](I mask, std::uint16_t b) { return mask & T::is(b); };
  auto row = [](const std::array<float, 4>& r, F x, F y, F z) {
    return T::fs(r[0]) * x + T::fs(r[1]) * y + T::fs(r[2]) * z + T::fs(r[3]);
  };
  auto dir = [](const std::array<float, 4>& r, F x, F y, F z) {
    return T::fs(r[0]) * x + T::fs(r[1]) * y + T::fs(r[2]) * z;
  };

  for (std::size_t i = begin; i < end; i += T::kLanes) {
    const std::size_t n = std::min<std::size_t>(T::kLanes, end - i);
    F px, py, pz;
    T::load3(&m.positions[i], n, px, py, pz);
    const F x = row(M[0], px, py, pz), y = row(M[1], px, py, pz), z = row(M[2], px, py, pz), w = row(M[3], px, py, pz);
    F u = zero, v = zero;
    if (has_uv) T::load2(&m.uvs[i], n, u, v);
    F r = T::fs(d.base_color.x), gr = T::fs(d.base_color.y), b = T::fs(d.base_color.z), a = T::fs(d.base_color.w);
    if (has_color) {
      const I c = T::load_colors(&m.colors[i], n);
      r = r * (to_f(c & byte) * inv255);
      gr = gr * (to_f(srl<8>(c) & byte) * inv255);
      b = b * (to_f(srl<16>(c) & byte) * inv255);
      a = a * (to_f(srl<24>(c)) * inv255);
    }
    if (lit) {
      F nx0, ny0, nz0;
      T::load3(&m.normals[i], n, nx0, ny0, nz0);
      const F nx = dir(N[0], nx0, ny0, nz0), ny = dir(N[1], nx0, ny0, nz0), nz = dir(N[2], nx0, ny0, nz0);
      // normalize_or(n, +Z): n / |n|, or +Z when the length is zero or not finite.
      const F len = sqrt(nx * nx + ny * ny + nz * nz);
      const I ok = cmpgt(len, zero) & finite(len);
      const F ux = select(ok, nx / len, zero), uy = select(ok, ny / len, zero), uz = select(ok, nz / len, one);
      const F diffuse = max(ux * T::fs(g.light_dir.x) + uy * T::fs(g.light_dir.y) + uz * T::fs(g.light_dir.z), zero);
      F lr = T::fs(g.ambient.x) + T::fs(g.light_color.x) * diffuse;
      F lg = T::fs(g.ambient.y) + T::fs(g.light_color.y) * diffuse;
      F lb = T::fs(g.ambient.z) + T::fs(g.light_color.z) * diffuse;
      if (!g.point_lights.empty()) {
        // World position (affine model), then each light's term (draw.hpp, PointLight).
        const auto& model = d.call->model.m;
        const F wx = row(model[0], px, py, pz), wy = row(model[1], px, py, pz), wz = row(model[2], px, py, pz);
        for (const PointLightState& pl : g.point_lights) {
          const F lx = T::fs(pl.position.x) - wx, ly = T::fs(pl.position.y) - wy, lz = T::fs(pl.position.z) - wz;
          const F d2 = lx * lx + ly * ly + lz * lz;
          const F dist = sqrt(d2);
          const F q = d2 * T::fs(pl.inv_radius2);  // (d / radius)^2
          const F win = max(one - q * q, zero);
          const F s2 = T::fs(pl.size2);
          const F ndotl = max(ux * lx + uy * ly + uz * lz, zero);  // dot(n, l) * d
          // Inside the radius (win > 0: d is finite) and away from the light itself.
          const I lit_here = cmpgt(win, zero) & cmpgt(dist, zero);
          const F k = select(lit_here, ndotl / dist * (s2 / (s2 + d2)) * (win * win), zero);
          lr = lr + T::fs(pl.color.x) * k;
          lg = lg + T::fs(pl.color.y) * k;
          lb = lb + T::fs(pl.color.z) * k;
        }
      }
      r = r * clamp(lr, zero, one);
      gr = gr * clamp(lg, zero, one);
      b = b * clamp(lb, zero, one);
    }
    r = clamp(r, zero, one);
    gr = clamp(gr, zero, one);
    b = clamp(b, zero, one);
    a = clamp(a, zero, one);

    // Outcodes (see outcode()).
    const F nw = zero - w, gxw = T::fs(g.guard_x) * w, gyw = T::fs(g.guard_y) * w;
    I o = bit(cmplt(z, nw), kNear) | bit(cmpgt(z, w), kFar) | bit(cmplt(x, zero - gxw), kGuardLeft) |
          bit(cmpgt(x, gxw), kGuardRight) | bit(cmplt(y, zero - gyw), kGuardBottom) | bit(cmpgt(y, gyw), kGuardTop) |
          bit(cmplt(w, T::fs(kMinW)), kWPlane) | bit(cmplt(x, nw), kOutLeft) | bit(cmpgt(x, w), kOutRight) |
          bit(cmplt(y, nw), kOutBottom) | bit(cmpgt(y, w), kOutTop);
    const I valid = finite(x) & finite(y) & finite(z) & finite(w) & finite(gxw) & finite(gyw);
    o = select(valid, o, T::is(kInvalid));

    // Window position and plane values (see to_window()); only used where no clip bit is set.
    const F inv_w = one / w;
    const F sx = clamp(vx + (x * inv_w + one) * half * vw, cx0, cx1);
    const F sy = clamp(vy + (one - y * inv_w) * half * vh, cy0, cy1);
    auto floor_i = [](F t) {
      const I ti = trunc_i(t);
      return ti + cmpgt(to_f(ti), t);  // -1 where truncation went up
    };
    const I fx = floor_i(sx * sub + half), fy = floor_i(sy * sub + half);
    const F sz = (z * inv_w + one) * half + bias;
    const F k = k255 * inv_w;
    const F groups[5][4] = {{x, y, z, w},
                            {u, v, r, gr},
                            {b, a, from_bits(fx), from_bits(fy)},
                            {sz, inv_w, u * inv_w, v * inv_w},
                            {r * k, gr * k, b * k, a * k}};
    T::store(out + i, keys + i, n, groups, fx, fy, o);
  }
}
