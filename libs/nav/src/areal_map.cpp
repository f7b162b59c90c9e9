#include "sortie/nav/areal_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <set>
#include <tuple>

#include "nav_internal.hpp"

namespace sortie::nav {

using core::Diagnostic;
using core::fail;
using core::Vec2;

namespace {

// Squared distance from p to the segment a-b, in f64.
double segment_distance_sq(double px, double py, double ax, double ay, double bx, double by) {
  const double dx = bx - ax;
  const double dy = by - ay;
  const double len_sq = dx * dx + dy * dy;
  double t = 0.0;
  if (len_sq > 0.0) t = std::clamp(((px - ax) * dx + (py - ay) * dy) / len_sq, 0.0, 1.0);
  const double cx = ax + t * dx - px;
  const double cy = ay + t * dy - py;
  return cx * cx + cy * cy;
}

double anchor_distance(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(a.x) - static_cast<double>(b.x);
  const double dy = static_cast<double>(a.y) - static_cast<double>(b.y);
  return std::sqrt(dx * dx + dy * dy);
}

// The route from `start` to `goal` read back through the search's parent links.
Route unwind(const std::vector<std::uint32_t>& parent, std::uint32_t start, std::uint32_t goal) {
  Route r{goal};
  for (std::uint32_t c = goal; c != start;) {
    c = parent[c];
    r.push_back(c);
  }
  std::reverse(r.begin(), r.end());
  return r;
}

}  // namespace

core::Result<ArealMap> ArealMap::build(const ArealInput& input) {
  ArealMap m;
  const std::size_t n = input.areals.size();
  if (n > std::numeric_limits<std::int32_t>::max()) {
    return fail(Diagnostic::error("nav.areal.limit", "too many areals").expect("<= 2^31 - 1", std::to_string(n)));
  }
  // Offsets into the adjacency and candidate lists are u32.
  std::uint64_t link_total = 0;
  for (const ArealPolygon& a : input.areals) link_total += a.links.size();
  if (link_total > std::numeric_limits<std::uint32_t>::max()) {
    return fail(Diagnostic::error("nav.areal.limit", "too many links")
                    .in("areals")
                    .expect("<= 2^32 - 1", std::to_string(link_total)));
  }
  m.areals_.reserve(n);
  m.adjacency_start_.reserve(n + 1);
  for (std::size_t i = 0; i < n; ++i) {
    const ArealPolygon& a = input.areals[i];
    ArealShape s;
    s.anchor = a.anchor;
    s.ring = a.ring;
    s.class_id = a.class_id;
    s.logic_flag = a.logic_flag;
    s.min_x = s.min_y = std::numeric_limits<float>::max();
    s.max_x = s.max_y = std::numeric_limits<float>::lowest();
    for (const Vec2 v : a.ring) {
      s.min_x = std::min(s.min_x, v.x);
      s.min_y = std::min(s.min_y, v.y);
      s.max_x = std::max(s.max_x, v.x);
      s.max_y = std::max(s.max_y, v.y);
    }
    std::vector<std::uint32_t> nb;
    for (std::size_t k = 0; k < a.links.size(); ++k) {
      const std::int32_t l = a.links[k];
      if (k < a.ring.size()) s.links.push_back(l);
      if (l == -1) continue;
      if (l < 0 || static_cast<std::size_t>(l) >= n) return fail(detail::missing_areal_link(i, k, n, l));
      if (static_cast<std::size_t>(l) != i) nb.push_back(static_cast<std::uint32_t>(l));
    }
    std::sort(nb.begin(), nb.end());
    nb.erase(std::unique(nb.begin(), nb.end()), nb.end());
    m.adjacency_start_.push_back(static_cast<std::uint32_t>(m.adjacency_.size()));
    m.adjacency_.insert(m.adjacency_.end(), nb.begin(), nb.end());
    m.areals_.push_back(std::move(s));
  }
  m.adjacency_start_.push_back(static_cast<std::uint32_t>(m.adjacency_.size()));

  if (!input.grid) return m;
  const CandidateGrid& g = *input.grid;
  const std::uint64_t cells = std::uint64_t{g.cells_x} * g.cells_y;
  if (cells != g.cells.size()) {
    return fail(Diagnostic::error("nav.areal.grid", "grid cell count does not match its size")
                    .in("grid.cells")
                    .expect(std::to_string(cells), std::to_string(g.cells.size())));
  }
  std::uint64_t id_total = 0;
  for (const auto& ids : g.cells) id_total += ids.size();
  if (id_total > std::numeric_limits<std::uint32_t>::max()) {
    return fail(Diagnostic::error("nav.areal.grid", "too many grid candidates")
                    .in("grid.cells")
                    .expect("<= 2^32 - 1", std::to_string(id_total)));
  }
  if (cells > 0 && g.min.x <= g.max.x && g.min.y <= g.max.y) {
    m.cells_x_ = g.cells_x;
    m.cells_y_ = g.cells_y;
    m.grid_min_x_ = static_cast<double>(g.min.x);
    m.grid_min_y_ = static_cast<double>(g.min.y);
    m.grid_span_x_ = static_cast<double>(g.max.x) - static_cast<double>(g.min.x);
    m.grid_span_y_ = static_cast<double>(g.max.y) - static_cast<double>(g.min.y);
    m.cell_start_.reserve(g.cells.size() + 1);
    for (std::size_t c = 0; c < g.cells.size(); ++c) {
      m.cell_start_.push_back(static_cast<std::uint32_t>(m.cell_ids_.size()));
      const std::size_t from = m.cell_ids_.size();
      for (std::uint32_t id : g.cells[c]) {
        if (id >= n) {
          return fail(Diagnostic::error("nav.areal.grid", "grid names a missing areal")
                          .in(fmt::format("grid.cells[{}]", c))
                          .expect(fmt::format("< {}", n), std::to_string(id)));
        }
        m.cell_ids_.push_back(id);
      }
      auto first = m.cell_ids_.begin() + static_cast<std::ptrdiff_t>(from);
      std::sort(first, m.cell_ids_.end());
      m.cell_ids_.erase(std::unique(first, m.cell_ids_.end()), m.cell_ids_.end());
    }
    m.cell_start_.push_back(static_cast<std::uint32_t>(m.cell_ids_.size()));
  }
  return m;
}

std::optional<std::size_t> ArealMap::cell_of(float xf, float yf) const {
  if (cells_x_ == 0 || cells_y_ == 0) return std::nullopt;
  auto axis_cell = [](double v, double lo, double span, std::uint32_t count) -> std::optional<std::uint32_t> {
    if (!(v >= lo) || !(v <= lo + span)) return std::nullopt;
    if (span <= 0.0) return 0u;
    auto upper = [&](std::uint32_t c) { return lo + span * static_cast<double>(c + 1) / static_cast<double>(count); };
    double guess = std::floor((v - lo) / span * static_cast<double>(count));
    guess = std::clamp(guess, 0.0, static_cast<double>(count - 1));
    auto c = static_cast<std::uint32_t>(guess);
    while (c > 0 && v <= upper(c - 1)) --c;  // inclusive upper edge belongs to the lower cell
    while (c + 1 < count && v > upper(c)) ++c;
    return c;
  };
  auto nx = axis_cell(static_cast<double>(xf), grid_min_x_, grid_span_x_, cells_x_);
  auto ny = axis_cell(static_cast<double>(yf), grid_min_y_, grid_span_y_, cells_y_);
  if (!nx || !ny) return std::nullopt;
  return std::size_t{*ny} * cells_x_ + *nx;
}

int ArealMap::classify(std::uint32_t areal, float xf, float yf) const {
  const ArealShape& s = areals_[areal];
  if (s.ring.empty()) return 0;
  const double eps = kEdgeEpsilon;
  const auto x = static_cast<double>(xf);
  const auto y = static_cast<double>(yf);
  if (x < static_cast<double>(s.min_x) - eps || x > static_cast<double>(s.max_x) + eps ||
      y < static_cast<double>(s.min_y) - eps || y > static_cast<double>(s.max_y) + eps)
    return 0;
  const std::size_t n = s.ring.size();
  bool inside = false;
  bool on_edge = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const auto xi = static_cast<double>(s.ring[i].x), yi = static_cast<double>(s.ring[i].y);
    const auto xj = static_cast<double>(s.ring[j].x), yj = static_cast<double>(s.ring[j].y);
    if (segment_distance_sq(x, y, xj, yj, xi, yi) <= eps * eps) on_edge = true;
    if ((yi > y) != (yj > y)) {
      const double cross_x = xj + (y - yj) * (xi - xj) / (yi - yj);
      if (x < cross_x) inside = !inside;
    }
  }
  if (on_edge) return 1;
  return inside ? 2 : 0;
}

bool ArealMap::contains(std::uint32_t areal, float x, float y) const {
  return areal < areals_.size() && classify(areal, x, y) > 0;
}

std::optional<LocateResult> ArealMap::locate_detail(float x, float y) const {
  auto pick = [&](auto&& ids, LocateSource source) -> std::optional<LocateResult> {
    std::optional<std::uint32_t> edge_hit;
    for (std::uint32_t id : ids) {
      const int c = classify(id, x, y);
      if (c == 2) return LocateResult{id, source};
      if (c == 1 && !edge_hit) edge_hit = id;
    }
    if (edge_hit) return LocateResult{*edge_hit, source};
    return std::nullopt;
  };
  if (auto cell = cell_of(x, y)) {
    std::span<const std::uint32_t> ids(cell_ids_.data() + cell_start_[*cell],
                                       cell_start_[*cell + 1] - cell_start_[*cell]);
    if (auto r = pick(ids, LocateSource::grid)) return r;
  }
  struct AllIds {
    std::uint32_t n;
    struct It {
      std::uint32_t i;
      std::uint32_t operator*() const { return i; }
      It& operator++() {
        ++i;
        return *this;
      }
      bool operator!=(const It& o) const { return i != o.i; }
    };
    [[nodiscard]] It begin() const { return {0}; }
    [[nodiscard]] It end() const { return {n}; }
  };
  return pick(AllIds{static_cast<std::uint32_t>(areals_.size())}, LocateSource::scan);
}

std::optional<std::uint32_t> ArealMap::locate(float x, float y) const {
  auto r = locate_detail(x, y);
  if (!r) return std::nullopt;
  return r->areal;
}

std::span<const std::uint32_t> ArealMap::neighbours(std::uint32_t areal) const {
  if (areal >= areals_.size()) return {};
  return {adjacency_.data() + adjacency_start_[areal], adjacency_start_[areal + 1] - adjacency_start_[areal]};
}

std::optional<Route> ArealMap::route(std::uint32_t start, std::uint32_t goal) const {
  const std::size_t n = areals_.size();
  if (start >= n || goal >= n) return std::nullopt;
  if (start == goal) return Route{start};
  constexpr std::uint32_t kUnseen = std::numeric_limits<std::uint32_t>::max();
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

std::optional<Route> ArealMap::route_astar(std::uint32_t start, std::uint32_t goal) const {
  const std::size_t n = areals_.size();
  if (start >= n || goal >= n) return std::nullopt;
  if (start == goal) return Route{start};
  constexpr std::uint32_t kUnseen = std::numeric_limits<std::uint32_t>::max();
  const Vec2 target = areals_[goal].anchor;
  std::vector<double> g(n, std::numeric_limits<double>::infinity());
  std::vector<std::uint32_t> parent(n, kUnseen);
  std::vector<bool> closed(n, false);
  std::set<std::tuple<double, double, std::uint32_t>> open;  // (f, g, id): deterministic order
  g[start] = 0.0;
  parent[start] = start;
  open.emplace(anchor_distance(areals_[start].anchor, target), 0.0, start);
  while (!open.empty()) {
    const auto [f, ga, a] = *open.begin();
    open.erase(open.begin());
    if (closed[a]) continue;
    closed[a] = true;
    if (a == goal) return unwind(parent, start, goal);
    for (std::uint32_t b : neighbours(a)) {
      if (closed[b]) continue;
      const double gb = ga + anchor_distance(areals_[a].anchor, areals_[b].anchor);
      if (gb < g[b]) {
        if (parent[b] != kUnseen) open.erase({g[b] + anchor_distance(areals_[b].anchor, target), g[b], b});
        g[b] = gb;
        parent[b] = a;
        open.emplace(gb + anchor_distance(areals_[b].anchor, target), gb, b);
      }
    }
  }
  return std::nullopt;
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
