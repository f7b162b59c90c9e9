// ArealMap routes: BFS (§18), A* with a reusable workspace, the portal corridor, the funnel and
// find_path (locate + A* + portals + funnel).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>

#include "nav_internal.hpp"
#include "sortie/nav/areal_map.hpp"

namespace sortie::nav {

using core::Diagnostic;
using core::fail;
using core::Vec2;

namespace {

constexpr std::uint32_t kUnseen = std::numeric_limits<std::uint32_t>::max();

double anchor_distance(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(a.x) - static_cast<double>(b.x);
  const double dy = static_cast<double>(a.y) - static_cast<double>(b.y);
  return std::sqrt(dx * dx + dy * dy);
}

// The route from `start` to `goal` read back through the search's parent links. A parent chain
// longer than the areal count would be a cycle: nullopt (never an endless loop).
std::optional<Route> unwind(const std::vector<std::uint32_t>& parent, std::uint32_t start, std::uint32_t goal) {
  Route r{goal};
  for (std::uint32_t c = goal; c != start;) {
    c = parent[c];
    if (c == kUnseen || r.size() > parent.size()) return std::nullopt;
    r.push_back(c);
  }
  std::reverse(r.begin(), r.end());
  return r;
}

using detail::cross3;
using detail::same_point;

// p within kEdgeEpsilon of the segment a-b (f64): the tolerance of locate's edge rule.
bool on_segment(Vec2 p, Vec2 a, Vec2 b) {
  return detail::segment_distance_sq(p, a, b) <= kEdgeEpsilon * kEdgeEpsilon;
}

}  // namespace

void PathWorkspace::reset(std::size_t areals) {
  if (g_.size() != areals) {
    g_.assign(areals, 0.0);
    parent_.assign(areals, kUnseen);
    stamp_.assign(areals, 0);
    generation_ = 0;
  }
  // Two stamps per search (seen, closed); wrap before the counter overflows.
  if (generation_ >= std::numeric_limits<std::uint32_t>::max() - 3) {
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    generation_ = 0;
  }
  generation_ += 2;
  heap_.clear();
}

void ArealMap::build_search_tables() {
  const std::size_t n = areals_.size();
  // Connected parts of the undirected closure (of the whole graph and of the walkable
  // subgraph): different parts can never be joined by a route.
  auto label = [&](bool walkable_only) {
    std::vector<std::uint32_t> part(n, kNoAreal);
    std::vector<std::vector<std::uint32_t>> undirected(n);
    for (std::uint32_t a = 0; a < n; ++a) {
      for (std::uint32_t b : neighbours(a)) {
        if (walkable_only && (!areals_[a].walkable || !areals_[b].walkable)) continue;
        undirected[a].push_back(b);
        undirected[b].push_back(a);
      }
    }
    std::uint32_t next = 0;
    std::vector<std::uint32_t> stack;
    for (std::uint32_t s0 = 0; s0 < n; ++s0) {
      if (part[s0] != kNoAreal || (walkable_only && !areals_[s0].walkable)) continue;
      part[s0] = next;
      stack.push_back(s0);
      while (!stack.empty()) {
        const std::uint32_t a = stack.back();
        stack.pop_back();
        for (std::uint32_t b : undirected[a]) {
          if (part[b] != kNoAreal) continue;
          part[b] = next;
          stack.push_back(b);
        }
      }
      ++next;
    }
    return part;
  };
  component_ = label(false);
  walk_component_ = label(true);
  for (std::uint32_t a = 0; a < n; ++a) {
    if (!areals_[a].walkable) walk_component_[a] = kNoAreal - 1;  // never equal to a walkable part
  }

  // Landmarks: farthest-first over the graph distance from areal 0, then from the chosen set
  // (unreachable counts as farthest, so other parts get a landmark of their own).
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<std::uint32_t>> reverse(n);
  std::vector<std::vector<double>> reverse_cost(n);
  for (std::uint32_t a = 0; a < n; ++a) {
    for (std::uint32_t e = adjacency_start_[a]; e < adjacency_start_[a + 1]; ++e) {
      reverse[adjacency_[e]].push_back(a);
      reverse_cost[adjacency_[e]].push_back(adjacency_cost_[e]);
    }
  }
  auto dijkstra = [&](std::uint32_t source, bool backward) {
    std::vector<double> d(n, inf);
    using Item = std::pair<double, std::uint32_t>;
    std::vector<Item> heap{{0.0, source}};
    d[source] = 0.0;
    auto after = [](const Item& x, const Item& y) { return x > y; };
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), after);
      // Not a structured binding: clang 14 cannot capture one in the lambda below.
      const double da = heap.back().first;
      const std::uint32_t a = heap.back().second;
      heap.pop_back();
      if (da != d[a]) continue;
      auto relax = [&](std::uint32_t b, double c) {
        if (da + c < d[b]) {
          d[b] = da + c;
          heap.emplace_back(d[b], b);
          std::push_heap(heap.begin(), heap.end(), after);
        }
      };
      if (backward) {
        for (std::size_t i = 0; i < reverse[a].size(); ++i) relax(reverse[a][i], reverse_cost[a][i]);
      } else {
        for (std::uint32_t e = adjacency_start_[a]; e < adjacency_start_[a + 1]; ++e)
          relax(adjacency_[e], adjacency_cost_[e]);
      }
    }
    return d;
  };
  landmark_count_ = std::min(kLandmarks, n);
  from_landmark_.assign(n * landmark_count_, inf);
  to_landmark_.assign(n * landmark_count_, inf);
  if (landmark_count_ == 0) return;
  std::vector<double> spread = dijkstra(0, false);  // min distance to the chosen landmarks
  std::vector<bool> chosen(n, false);
  for (std::size_t l = 0; l < landmark_count_; ++l) {
    std::uint32_t pick = 0;
    for (std::uint32_t a = 1; a < n; ++a) {
      if (chosen[pick] || (!chosen[a] && spread[a] > spread[pick])) pick = a;
    }
    chosen[pick] = true;
    const std::vector<double> from = dijkstra(pick, false);
    const std::vector<double> to = dijkstra(pick, true);
    for (std::uint32_t a = 0; a < n; ++a) {
      from_landmark_[std::size_t{a} * landmark_count_ + l] = from[a];
      to_landmark_[std::size_t{a} * landmark_count_ + l] = to[a];
      spread[a] = l == 0 ? from[a] : std::min(spread[a], from[a]);
    }
  }
}

std::optional<Route> ArealMap::route(std::uint32_t start, std::uint32_t goal) const {
  const std::size_t n = areals_.size();
  if (start >= n || goal >= n) return std::nullopt;
  if (start == goal) return Route{start};
  std::vector<std::uint32_t> parent(n, kUnseen);
  std::deque<std::uint32_t> queue{start};
  parent[start] = start;
  while (!queue.empty()) {
    const std::uint32_t a = queue.front();
    queue.pop_front();
    for (std::uint32_t b : neighbours(a)) {
      if (parent[b] != kUnseen) continue;
      parent[b] = a;
      if (b == goal) return unwind(parent, start, goal);
      queue.push_back(b);
    }
  }
  return std::nullopt;
}

std::optional<Route> ArealMap::search(std::uint32_t start, std::uint32_t goal, PathWorkspace& ws, bool walkable_only,
                                      Vec2 line_a, Vec2 line_b) const {
  const std::size_t n = areals_.size();
  if (start >= n || goal >= n) return std::nullopt;
  if (walkable_only && (!areals_[start].walkable || !areals_[goal].walkable)) return std::nullopt;
  if (start == goal) return Route{start};
  const auto& parts = walkable_only ? walk_component_ : component_;
  if (parts[start] != parts[goal]) return std::nullopt;  // no path joins them, whatever the links
  ws.reset(n);
  const std::uint32_t seen = ws.generation_;
  const std::uint32_t closed = ws.generation_ + 1;
  const Vec2 target = areals_[goal].anchor;
  // Min-heap on (f ascending, g descending, id ascending); stale entries are skipped.
  auto after = [](const PathWorkspace::Entry& a, const PathWorkspace::Entry& b) {
    if (a.f != b.f) return a.f > b.f;
    if (a.g != b.g) return a.g < b.g;
    return a.id > b.id;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t k = landmark_count_;
  const double* goal_from = from_landmark_.data() + std::size_t{goal} * k;
  const double* goal_to = to_landmark_.data() + std::size_t{goal} * k;
  // max(anchor distance, landmark bounds); infinity when a bound proves the goal unreachable.
  auto heuristic = [&](std::uint32_t a) {
    double h = anchor_distance(areals_[a].anchor, target);
    const double* a_from = from_landmark_.data() + std::size_t{a} * k;
    const double* a_to = to_landmark_.data() + std::size_t{a} * k;
    for (std::size_t l = 0; l < k; ++l) {
      if (a_from[l] != inf) h = std::max(h, goal_from[l] - a_from[l]);  // d(L,g) <= d(L,a) + d(a,g)
      if (goal_to[l] != inf) h = std::max(h, a_to[l] - goal_to[l]);     // d(a,L) <= d(a,g) + d(g,L)
    }
    return h;
  };
  // Distance of a point from the line through line_a and line_b (from line_a when they coincide).
  const double lx = static_cast<double>(line_b.x) - static_cast<double>(line_a.x);
  const double ly = static_cast<double>(line_b.y) - static_cast<double>(line_a.y);
  const double line_len = std::sqrt(lx * lx + ly * ly);
  auto off_line = [&](Vec2 p) {
    const double px = static_cast<double>(p.x) - static_cast<double>(line_a.x);
    const double py = static_cast<double>(p.y) - static_cast<double>(line_a.y);
    if (!(line_len > 0.0)) return std::sqrt(px * px + py * py);
    return std::fabs(lx * py - ly * px) / line_len;
  };
  ws.g_[start] = 0.0;
  ws.parent_[start] = start;
  ws.stamp_[start] = seen;
  const double h0 = heuristic(start);
  if (h0 == inf) return std::nullopt;
  ws.heap_.push_back({h0, 0.0, start});
  while (!ws.heap_.empty()) {
    std::pop_heap(ws.heap_.begin(), ws.heap_.end(), after);
    const PathWorkspace::Entry top = ws.heap_.back();
    ws.heap_.pop_back();
    const std::uint32_t a = top.id;
    if (ws.stamp_[a] == closed || top.g != ws.g_[a]) continue;  // closed, or a stale entry
    ws.stamp_[a] = closed;
    if (a == goal) {
      // The parent chain of a closed node only holds closed nodes: at most n steps.
      Route r{goal};
      for (std::uint32_t c = goal; c != start;) {
        c = ws.parent_[c];
        if (r.size() > n) return std::nullopt;
        r.push_back(c);
      }
      std::reverse(r.begin(), r.end());
      return r;
    }
    for (std::uint32_t e = adjacency_start_[a]; e < adjacency_start_[a + 1]; ++e) {
      const std::uint32_t b = adjacency_[e];
      if (ws.stamp_[b] == closed) continue;
      if (walkable_only && !areals_[b].walkable) continue;
      const double gb = top.g + adjacency_cost_[e] + kStraightness * off_line(areals_[b].anchor);
      if (ws.stamp_[b] != seen || gb < ws.g_[b]) {
        const double hb = heuristic(b);
        if (hb == inf) continue;  // the goal cannot be reached from b
        ws.stamp_[b] = seen;
        ws.g_[b] = gb;
        ws.parent_[b] = a;
        ws.heap_.push_back({gb + hb, gb, b});
        std::push_heap(ws.heap_.begin(), ws.heap_.end(), after);
      }
    }
  }
  return std::nullopt;
}

std::optional<Route> ArealMap::route_astar(std::uint32_t start, std::uint32_t goal, PathWorkspace* workspace,
                                           bool walkable_only) const {
  if (start >= areals_.size() || goal >= areals_.size()) return std::nullopt;
  PathWorkspace local;
  return search(start, goal, workspace != nullptr ? *workspace : local, walkable_only, areals_[start].anchor,
                areals_[goal].anchor);
}

std::vector<Portal> ArealMap::portals(std::span<const std::uint32_t> route) const {
  std::vector<Portal> out;
  if (route.size() < 2) return out;
  out.reserve(route.size() - 1);
  for (std::size_t i = 0; i + 1 < route.size(); ++i) {
    const std::uint32_t a = route[i];
    const std::uint32_t b = route[i + 1];
    if (a >= areals_.size() || b >= areals_.size()) break;
    const ArealShape& s = areals_[a];
    const std::size_t n = s.ring.size();
    bool found = false;
    Vec2 best_p, best_q;
    double best_len = -1.0;
    for (std::size_t k = 0; k < s.links.size() && k < n; ++k) {
      if (s.links[k] != static_cast<std::int32_t>(b)) continue;
      Vec2 p = s.ring[k];
      Vec2 q = s.ring[(k + 1) % n];
      // Clip edge k to the stretch the facing edge of b covers (a T-junction shares only part).
      const std::int32_t e = s.link_edges[k];
      const ArealShape& t = areals_[b];
      if (e >= 0 && static_cast<std::size_t>(e) < t.ring.size()) {
        const Vec2 u = t.ring[static_cast<std::size_t>(e)];
        const Vec2 v = t.ring[(static_cast<std::size_t>(e) + 1) % t.ring.size()];
        const double dx = static_cast<double>(q.x) - static_cast<double>(p.x);
        const double dy = static_cast<double>(q.y) - static_cast<double>(p.y);
        const double len_sq = dx * dx + dy * dy;
        if (len_sq > 0.0) {
          auto param = [&](Vec2 w) {
            return ((static_cast<double>(w.x) - static_cast<double>(p.x)) * dx +
                    (static_cast<double>(w.y) - static_cast<double>(p.y)) * dy) /
                   len_sq;
          };
          const double lo = std::max(0.0, std::min(param(u), param(v)));
          const double hi = std::min(1.0, std::max(param(u), param(v)));
          if (lo < hi && (lo > 0.0 || hi < 1.0)) {
            const Vec2 p0 = p;
            p = Vec2{static_cast<float>(static_cast<double>(p0.x) + lo * dx),
                     static_cast<float>(static_cast<double>(p0.y) + lo * dy)};
            q = Vec2{static_cast<float>(static_cast<double>(p0.x) + hi * dx),
                     static_cast<float>(static_cast<double>(p0.y) + hi * dy)};
          }
        }
      }
      const double len = anchor_distance(p, q);
      if (len > best_len) {
        best_len = len;
        best_p = p;
        best_q = q;
        found = true;
      }
    }
    if (!found) {
      out.push_back(Portal{areals_[b].anchor, areals_[b].anchor, a, b});
      continue;
    }
    // Leaving a counter-clockwise ring through edge p -> q, q is on the mover's left.
    if (s.ccw) {
      out.push_back(Portal{best_q, best_p, a, b});
    } else {
      out.push_back(Portal{best_p, best_q, a, b});
    }
  }
  return out;
}

std::vector<Vec2> funnel(std::span<const Portal> portals, Vec2 from, Vec2 to) {
  // Portal list with the start and the end as degenerate portals.
  const std::size_t count = portals.size() + 2;
  auto left_of = [&](std::size_t i) { return i == 0 ? from : (i == count - 1 ? to : portals[i - 1].left); };
  auto right_of = [&](std::size_t i) { return i == 0 ? from : (i == count - 1 ? to : portals[i - 1].right); };
  std::vector<Vec2> out{from};
  auto emit = [&](Vec2 p) {
    if (!same_point(out.back(), p)) out.push_back(p);
  };
  Vec2 apex = from, left = from, right = from;
  std::size_t apex_index = 0, left_index = 0, right_index = 0;
  // Every restart moves the apex to a later portal, so the scan ends; the guard bounds it
  // anyway against non-finite input.
  std::size_t guard = 0;
  const std::size_t guard_limit = count * count + 16;
  for (std::size_t i = 1; i < count && guard < guard_limit; ++i, ++guard) {
    const Vec2 nl = left_of(i);
    const Vec2 nr = right_of(i);
    // A portal through the apex itself (a start on a shared edge, a corner on the next portal)
    // is passed at the apex: skip it. Kept, it would open the funnel to a half plane, whose
    // sides are collinear, and the next portal would turn the far end of this one into a corner.
    if (i + 1 < count && on_segment(apex, nl, nr)) continue;
    // Right side: tighten when nr is left of (or on) apex -> right.
    if (cross3(apex, right, nr) >= 0.0) {
      if (same_point(apex, right) || cross3(apex, left, nr) < 0.0) {
        right = nr;
        right_index = i;
      } else {
        // nr crossed the left side: the left point is a corner.
        emit(left);
        apex = left;
        apex_index = left_index;
        right = left = apex;
        right_index = left_index = apex_index;
        i = apex_index;
        continue;
      }
    }
    // Left side: tighten when nl is right of (or on) apex -> left.
    if (cross3(apex, left, nl) <= 0.0) {
      if (same_point(apex, left) || cross3(apex, right, nl) > 0.0) {
        left = nl;
        left_index = i;
      } else {
        emit(right);
        apex = right;
        apex_index = right_index;
        right = left = apex;
        right_index = left_index = apex_index;
        i = apex_index;
        continue;
      }
    }
  }
  emit(to);
  return out;
}

core::Result<Path> ArealMap::find_path(Vec2 from, Vec2 to, const PathOptions& options, PathWorkspace* workspace) const {
  auto endpoint = [&](Vec2 p, std::optional<float> z, const char* which) -> core::Result<LocateResult> {
    LocateOptions lo = options.locate;
    lo.z = z;
    auto hit = locate_areal(p, lo);
    if (hit) return *hit;
    const bool blocked = hit.error() == LocateMiss::not_walkable;
    return fail(
        Diagnostic::error(blocked ? "nav.path.not_walkable" : "nav.path.off_map",
                          blocked ? fmt::format("the {} lies only in areals that are not walkable", which)
                                  : fmt::format("the {} is outside every areal", which))
            .in(which)
            .expect(blocked ? "a walkable areal" : "a point inside an areal", fmt::format("({}, {})", p.x, p.y)));
  };
  SORTIE_TRY(const LocateResult start, endpoint(from, options.locate.z, "start"));
  SORTIE_TRY(const LocateResult goal, endpoint(to, options.goal_z, "goal"));
  return path_between(start, from, goal, to, options.locate.walkable_only, workspace);
}

core::Result<Path> ArealMap::path_between(const LocateResult& start, Vec2 from, const LocateResult& goal, Vec2 to,
                                          bool walkable_only, PathWorkspace* workspace) const {
  PathWorkspace local;
  auto route = search(start.areal, goal.areal, workspace != nullptr ? *workspace : local, walkable_only, from, to);
  if (!route) {
    return fail(
        Diagnostic::error("nav.path.unreachable", "no route joins the two areals")
            .in("route")
            .expect(fmt::format("a route from areal {}", start.areal), fmt::format("none to areal {}", goal.areal)));
  }
  Path path;
  path.start = start;
  path.goal = goal;
  path.corridor = path_corridor(*route, from, to);
  path.areals = std::move(*route);
  path.points = funnel(path.corridor, from, to);
  for (std::size_t i = 0; i + 1 < path.points.size(); ++i)
    path.length += anchor_distance(path.points[i], path.points[i + 1]);
  return path;
}

std::vector<Vec2> ArealMap::corridor(std::span<const std::uint32_t> route, Vec2 from, Vec2 to) const {
  (void)from;
  std::vector<Vec2> out;
  out.reserve(route.size());
  for (std::size_t i = 0; i + 1 < route.size(); ++i) {
    const std::uint32_t a = route[i];
    const std::uint32_t b = route[i + 1];
    if (a >= areals_.size() || b >= areals_.size()) break;
    const ArealShape& s = areals_[a];
    std::optional<Vec2> gate;
    for (std::size_t k = 0; k < s.links.size() && k < s.ring.size(); ++k) {
      if (s.links[k] != static_cast<std::int32_t>(b)) continue;
      const Vec2 p = s.ring[k];
      const Vec2 q = s.ring[(k + 1) % s.ring.size()];
      gate = Vec2{(p.x + q.x) * 0.5f, (p.y + q.y) * 0.5f};
      break;
    }
    out.push_back(gate ? *gate : areals_[b].anchor);
  }
  out.push_back(to);
  return out;
}

}  // namespace sortie::nav
