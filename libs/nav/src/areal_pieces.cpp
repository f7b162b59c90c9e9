// Non-convex areals (docs/navigation.md): a ring that is not convex is split into triangles when
// the map is built, and a path through such an areal crosses the diagonals between the triangle
// it enters and the one it leaves, so the funnel keeps the line inside the ring.
#include <algorithm>
#include <cmath>
#include <limits>

#include "nav_internal.hpp"
#include "sortie/nav/areal_map.hpp"

namespace sortie::nav {

using core::Vec2;

namespace {

using detail::cross3;
using detail::same_point;
using detail::segment_distance_sq;

double dot3(Vec2 a, Vec2 b, Vec2 c) {  // (b - a) . (c - b)
  return (static_cast<double>(b.x) - static_cast<double>(a.x)) * (static_cast<double>(c.x) - static_cast<double>(b.x)) +
         (static_cast<double>(b.y) - static_cast<double>(a.y)) * (static_cast<double>(c.y) - static_cast<double>(b.y));
}

}  // namespace

std::optional<ArealMap::Pieces> ArealMap::split_ring(std::span<const Vec2> ring, bool ccw) {
  const std::size_t n = ring.size();
  if (n < 4) return std::nullopt;
  // Counter-clockwise order: position c holds ring[at(c)]; ccw edge c (position c -> c + 1) is
  // ring edge edge_of(c).
  auto at = [&](std::size_t c) { return ccw ? c : n - 1 - c; };
  auto edge_of = [&](std::size_t c) { return ccw ? c : (2 * n - 2 - c) % n; };
  auto v = [&](std::size_t c) { return ring[at(c)]; };
  bool convex = true;
  for (std::size_t c = 0; c < n && convex; ++c) {
    if (cross3(v((c + n - 1) % n), v(c), v((c + 1) % n)) < 0.0) convex = false;
  }
  if (convex) return std::nullopt;

  // Doubly linked list over the positions, without straight vertices (collinear, same way on)
  // and repeated points: they would make zero-area triangles.
  std::vector<std::size_t> prev(n), next(n);
  for (std::size_t c = 0; c < n; ++c) {
    prev[c] = (c + n - 1) % n;
    next[c] = (c + 1) % n;
  }
  std::size_t remaining = n;
  std::size_t head = 0;
  for (std::size_t pass = 0, c = 0; pass < 2 * n && remaining > 3; ++pass) {
    const std::size_t a = prev[c], b = next[c];
    const bool repeated = same_point(v(a), v(c));
    const bool straight = cross3(v(a), v(c), v(b)) == 0.0 && dot3(v(a), v(c), v(b)) > 0.0;
    if (repeated || straight) {
      next[a] = b;
      prev[b] = a;
      --remaining;
      if (head == c) head = b;
      pass = 0;  // a removal can make its neighbours straight: scan on
    }
    c = b;
  }
  // The ring edge run each kept vertex starts: ccw edges c .. run_end[c] - 1.
  std::vector<std::size_t> run_end(n, 0);
  for (std::size_t c = head, k = 0; k < remaining; ++k, c = next[c]) run_end[c] = next[c];
  // Edge labels of the shrinking polygon, per vertex (its edge to next): a boundary run (the
  // vertex itself, >= 0) or a diagonal (-1 - index).
  std::vector<std::int64_t> label(n);
  for (std::size_t c = 0; c < n; ++c) label[c] = static_cast<std::int64_t>(c);

  Pieces out;
  out.edge_triangle.assign(n, 0);
  auto attach = [&](std::int64_t l, std::uint32_t t) {
    if (l < 0) {
      out.diagonals[static_cast<std::size_t>(-1 - l)].b = t;
      return;
    }
    for (std::size_t c = static_cast<std::size_t>(l);; c = (c + 1) % n) {
      out.edge_triangle[edge_of(c)] = t;
      if ((c + 1) % n == run_end[static_cast<std::size_t>(l)]) break;
    }
  };
  auto inside_or_on = [&](Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
    return cross3(a, b, p) >= 0.0 && cross3(b, c, p) >= 0.0 && cross3(c, a, p) >= 0.0;
  };
  std::size_t cursor = head;
  while (remaining > 3) {
    bool clipped = false;
    for (std::size_t tries = 0; tries < remaining; ++tries, cursor = next[cursor]) {
      const std::size_t i = cursor, a = prev[i], b = next[i];
      if (cross3(v(a), v(i), v(b)) <= 0.0) continue;  // reflex or straight: not an ear
      bool blocked = false;
      for (std::size_t j = next[b]; j != a && !blocked; j = next[j]) {
        const Vec2 q = v(j);
        if (same_point(q, v(a)) || same_point(q, v(i)) || same_point(q, v(b))) continue;
        blocked = inside_or_on(q, v(a), v(i), v(b));
      }
      if (blocked) continue;
      const auto t = static_cast<std::uint32_t>(out.triangles.size());
      out.triangles.push_back({v(a), v(i), v(b)});
      attach(label[a], t);
      attach(label[i], t);
      // The new edge a -> b of the polygon left is the diagonal; b -> a is triangle t's edge.
      out.diagonals.push_back({t, t, v(b), v(a)});
      label[a] = -1 - static_cast<std::int64_t>(out.diagonals.size() - 1);
      next[a] = b;
      prev[b] = a;
      --remaining;
      cursor = b;
      clipped = true;
      break;
    }
    if (!clipped) return std::nullopt;  // no ear: not a simple ring
  }
  const std::size_t a = cursor, b = next[a], c = next[b];
  if (!(cross3(v(a), v(b), v(c)) > 0.0)) return std::nullopt;
  const auto t = static_cast<std::uint32_t>(out.triangles.size());
  out.triangles.push_back({v(a), v(b), v(c)});
  attach(label[a], t);
  attach(label[b], t);
  attach(label[c], t);
  return out;
}

std::uint32_t ArealMap::triangle_of(const Pieces& pieces, Vec2 p) {
  std::uint32_t best = 0;
  double best_depth = -std::numeric_limits<double>::infinity();
  for (std::uint32_t t = 0; t < pieces.triangles.size(); ++t) {
    const auto& tri = pieces.triangles[t];
    double depth = std::numeric_limits<double>::infinity();  // distance inside (< 0: outside)
    for (std::size_t k = 0; k < 3; ++k) {
      const Vec2 a = tri[k], b = tri[(k + 1) % 3];
      const double len = std::hypot(static_cast<double>(b.x) - static_cast<double>(a.x),
                                    static_cast<double>(b.y) - static_cast<double>(a.y));
      depth = std::min(depth, cross3(a, b, p) / len);
    }
    if (depth > best_depth) {
      best_depth = depth;
      best = t;
    }
  }
  return best;
}

std::size_t ArealMap::nearest_edge(std::uint32_t areal, Vec2 p) const {
  const auto& ring = areals_[areal].ring;
  std::size_t best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const double d = segment_distance_sq(p, ring[k], ring[(k + 1) % ring.size()]);
    if (d < best_d) {
      best_d = d;
      best = k;
    }
  }
  return best;
}

void ArealMap::inner_portals(std::uint32_t areal, Vec2 enter, std::size_t enter_edge, Vec2 leave,
                             std::size_t leave_edge, std::vector<Portal>& out) const {
  const Pieces& pc = pieces_[areals_[areal].pieces];
  const std::uint32_t s = enter_edge == kNoEdge ? triangle_of(pc, enter) : pc.edge_triangle[enter_edge];
  const std::uint32_t g = leave_edge == kNoEdge ? triangle_of(pc, leave) : pc.edge_triangle[leave_edge];
  if (s == g) return;
  // The diagonals join the triangles into a tree: walk back from g along the BFS parents.
  const std::size_t count = pc.triangles.size();
  std::vector<std::uint32_t> via(count, kNoAreal);  // diagonal that reached each triangle
  std::vector<std::uint32_t> queue{s};
  std::vector<bool> seen(count, false);
  seen[s] = true;
  for (std::size_t h = 0; h < queue.size() && !seen[g]; ++h) {
    const std::uint32_t t = queue[h];
    for (std::uint32_t d = 0; d < pc.diagonals.size(); ++d) {
      const auto& dg = pc.diagonals[d];
      const std::uint32_t other = dg.a == t ? dg.b : (dg.b == t ? dg.a : kNoAreal);
      if (other == kNoAreal || seen[other]) continue;
      seen[other] = true;
      via[other] = d;
      queue.push_back(other);
    }
  }
  if (!seen[g]) return;  // cannot happen for a triangulation; keep the areal portals only
  std::vector<Portal> chain;
  for (std::uint32_t t = g; t != s;) {
    const auto& dg = pc.diagonals[via[t]];
    const std::uint32_t from = dg.a == t ? dg.b : dg.a;
    // Leaving triangle a through its edge p -> q: q is on the mover's left.
    chain.push_back(from == dg.a ? Portal{dg.q, dg.p, areal, areal} : Portal{dg.p, dg.q, areal, areal});
    t = from;
  }
  out.insert(out.end(), chain.rbegin(), chain.rend());
}

std::vector<Portal> ArealMap::path_corridor(std::span<const std::uint32_t> route, Vec2 from, Vec2 to) const {
  std::vector<Portal> between = portals(route);
  if (pieces_.empty()) return between;
  std::vector<Portal> out;
  out.reserve(between.size());
  for (std::size_t i = 0; i < route.size(); ++i) {
    const std::uint32_t x = route[i];
    if (i > 0 && i - 1 < between.size()) out.push_back(between[i - 1]);
    if (x >= areals_.size() || areals_[x].pieces == kNoAreal) continue;
    // Where the path enters x (the start, or the portal from the areal before) and leaves it.
    Vec2 enter = from, leave = to;
    std::size_t enter_edge = kNoEdge, leave_edge = kNoEdge;
    if (i > 0) {
      if (i - 1 >= between.size()) break;
      const Portal& g = between[i - 1];
      enter = (g.left + g.right) * 0.5f;
      if (!same_point(g.left, g.right)) enter_edge = nearest_edge(x, enter);
    }
    if (i + 1 < route.size()) {
      if (i >= between.size()) break;
      const Portal& g = between[i];
      leave = (g.left + g.right) * 0.5f;
      if (!same_point(g.left, g.right)) leave_edge = nearest_edge(x, leave);
    }
    inner_portals(x, enter, enter_edge, leave, leave_edge, out);
  }
  return out;
}

}  // namespace sortie::nav
