// ArealMap: build, locate (with the choice among overlapping candidates) and nearest.
#include "sortie/nav/areal_map.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "nav_internal.hpp"

namespace sortie::nav {

using core::Diagnostic;
using core::fail;
using core::Vec2;

namespace {

// Squared distance from p to the segment a-b, in f64; `t` gets the parameter of the closest point.
double segment_distance_sq(double px, double py, double ax, double ay, double bx, double by, double* t_out = nullptr) {
  const double dx = bx - ax;
  const double dy = by - ay;
  const double len_sq = dx * dx + dy * dy;
  double t = 0.0;
  if (len_sq > 0.0) t = std::clamp(((px - ax) * dx + (py - ay) * dy) / len_sq, 0.0, 1.0);
  const double cx = ax + t * dx - px;
  const double cy = ay + t * dy - py;
  if (t_out != nullptr) *t_out = t;
  return cx * cx + cy * cy;
}

double anchor_distance(Vec2 a, Vec2 b) {
  const double dx = static_cast<double>(a.x) - static_cast<double>(b.x);
  const double dy = static_cast<double>(a.y) - static_cast<double>(b.y);
  return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

std::string_view to_string(LocateMiss miss) {
  return miss == LocateMiss::no_areal ? "no_areal" : "not_walkable";
}

bool ArealPolicy::walkable(std::uint32_t class_id, std::uint32_t logic_flag) const {
  if ((logic_flag & blocked_logic_mask) != 0) return false;
  return std::find(blocked_classes.begin(), blocked_classes.end(), class_id) == blocked_classes.end();
}

core::Result<ArealMap> ArealMap::build(const ArealInput& input, const ArealPolicy& policy) {
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
    s.anchor_z = a.anchor_z;
    s.normal = a.normal;
    s.walkable = policy.walkable(a.class_id, a.logic_flag);
    s.min_x = s.min_y = std::numeric_limits<float>::max();
    s.max_x = s.max_y = std::numeric_limits<float>::lowest();
    double area2 = 0.0;  // twice the signed area (shoelace, f64)
    for (std::size_t k = 0; k < a.ring.size(); ++k) {
      const Vec2 v = a.ring[k];
      const Vec2 w = a.ring[(k + 1) % a.ring.size()];
      area2 +=
          static_cast<double>(v.x) * static_cast<double>(w.y) - static_cast<double>(w.x) * static_cast<double>(v.y);
      s.min_x = std::min(s.min_x, v.x);
      s.min_y = std::min(s.min_y, v.y);
      s.max_x = std::max(s.max_x, v.x);
      s.max_y = std::max(s.max_y, v.y);
      m.bounds_.expand({v.x, v.y, 0.0f});
    }
    s.ccw = !(area2 < 0.0);
    if (auto pieces = split_ring(s.ring, s.ccw)) {
      s.pieces = static_cast<std::uint32_t>(m.pieces_.size());
      m.pieces_.push_back(std::move(*pieces));
    }
    std::vector<std::uint32_t> nb;
    for (std::size_t k = 0; k < a.links.size(); ++k) {
      const std::int32_t l = a.links[k];
      if (k < a.ring.size()) {
        s.links.push_back(l);
        s.link_edges.push_back(k < a.link_edges.size() ? a.link_edges[k] : -1);
      }
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
  m.adjacency_cost_.resize(m.adjacency_.size());
  for (std::size_t a = 0; a < n; ++a) {
    for (std::uint32_t e = m.adjacency_start_[a]; e < m.adjacency_start_[a + 1]; ++e) {
      m.adjacency_cost_[e] = anchor_distance(m.areals_[a].anchor, m.areals_[m.adjacency_[e]].anchor);
    }
  }

  m.build_search_tables();

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

std::span<const std::uint32_t> ArealMap::cell_candidates(std::size_t cell) const {
  return {cell_ids_.data() + cell_start_[cell], cell_start_[cell + 1] - cell_start_[cell]};
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
    if (!on_edge && segment_distance_sq(x, y, xj, yj, xi, yi) <= eps * eps) on_edge = true;
    if ((yi > y) != (yj > y)) {
      const double cross_x = xj + (y - yj) * (xi - xj) / (yi - yj);
      if (x < cross_x) inside = !inside;
    }
  }
  if (on_edge) return 1;
  return inside ? 2 : 0;
}

double ArealMap::boundary_distance(std::uint32_t areal, double x, double y, Vec2* closest) const {
  const ArealShape& s = areals_[areal];
  double best = std::numeric_limits<double>::infinity();
  const std::size_t n = s.ring.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = s.ring[i];
    const Vec2 b = s.ring[(i + 1) % n];
    double t = 0.0;
    const double d = segment_distance_sq(x, y, static_cast<double>(a.x), static_cast<double>(a.y),
                                         static_cast<double>(b.x), static_cast<double>(b.y), &t);
    if (d < best) {
      best = d;
      if (closest != nullptr) {
        *closest = Vec2{
            static_cast<float>(static_cast<double>(a.x) + t * (static_cast<double>(b.x) - static_cast<double>(a.x))),
            static_cast<float>(static_cast<double>(a.y) + t * (static_cast<double>(b.y) - static_cast<double>(a.y)))};
      }
    }
  }
  return std::sqrt(best);
}

float ArealMap::plane_z(std::uint32_t areal, float x, float y) const {
  const ArealShape& s = areals_.at(areal);
  if (!(std::fabs(s.normal.z) > 1e-6f)) return s.anchor_z;
  return s.anchor_z - (s.normal.x * (x - s.anchor.x) + s.normal.y * (y - s.anchor.y)) / s.normal.z;
}

bool ArealMap::contains(std::uint32_t areal, float x, float y) const {
  return areal < areals_.size() && classify(areal, x, y) > 0;
}

tl::expected<LocateResult, LocateMiss> ArealMap::locate_areal(Vec2 p, const LocateOptions& options) const {
  const float x = p.x;
  const float y = p.y;
  bool saw_blocked = false;
  // Ranking (see the header): class, walkable, z distance, clearance (strict only), id. Later
  // keys are computed only when the earlier ones tie.
  struct Candidate {
    std::uint32_t id = kNoAreal;
    int cls = 0;
    bool walkable = false;
    double z_distance = -1.0;  // < 0: not computed yet
    double clearance = -1.0;
  };
  auto z_distance = [&](Candidate& c) {
    if (c.z_distance < 0.0)
      c.z_distance = std::fabs(static_cast<double>(plane_z(c.id, x, y)) - static_cast<double>(*options.z));
    return c.z_distance;
  };
  auto clearance = [&](Candidate& c) {
    if (c.clearance < 0.0)
      c.clearance = boundary_distance(c.id, static_cast<double>(x), static_cast<double>(y), nullptr);
    return c.clearance;
  };
  auto better = [&](Candidate& a, Candidate& b) {  // a ranks before b (b was seen first: lower id)
    if (a.cls != b.cls) return a.cls > b.cls;
    if (a.walkable != b.walkable) return a.walkable;
    if (options.z) {
      const double za = z_distance(a);
      const double zb = z_distance(b);
      if (za != zb) return za < zb;
    }
    if (a.cls == 2) {
      const double ca = clearance(a);
      const double cb = clearance(b);
      if (ca != cb) return ca > cb;
    }
    return false;
  };
  auto pick = [&](auto&& ids, LocateSource source) -> std::optional<LocateResult> {
    Candidate best;
    for (std::uint32_t id : ids) {
      const int c = classify(id, x, y);
      if (c == 0) continue;
      Candidate cand{id, c, areals_[id].walkable};
      if (options.walkable_only && !cand.walkable) {
        saw_blocked = true;
        continue;
      }
      if (best.id == kNoAreal || better(cand, best)) best = cand;
    }
    if (best.id == kNoAreal) return std::nullopt;
    return LocateResult{best.id, source, best.cls == 1, best.walkable};
  };
  if (auto cell = cell_of(x, y)) {
    if (auto r = pick(cell_candidates(*cell), LocateSource::grid)) return *r;
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
  if (auto r = pick(AllIds{static_cast<std::uint32_t>(areals_.size())}, LocateSource::scan)) return *r;
  return tl::unexpected(saw_blocked ? LocateMiss::not_walkable : LocateMiss::no_areal);
}

std::optional<LocateResult> ArealMap::locate_detail(float x, float y) const {
  auto r = locate_areal(Vec2{x, y});
  if (!r) return std::nullopt;
  return *r;
}

std::optional<std::uint32_t> ArealMap::locate(float x, float y) const {
  auto r = locate_areal(Vec2{x, y});
  if (!r) return std::nullopt;
  return r->areal;
}

std::optional<NearestResult> ArealMap::nearest(Vec2 p, float max_distance, const LocateOptions& options) const {
  if (!core::is_finite(p) || !(max_distance >= 0.0f)) return std::nullopt;
  if (auto hit = locate_areal(p, options)) return NearestResult{hit->areal, p, 0.0f};
  const auto px = static_cast<double>(p.x);
  const auto py = static_cast<double>(p.y);
  const auto limit = static_cast<double>(max_distance);
  std::optional<NearestResult> best;
  double best_d = std::numeric_limits<double>::infinity();
  auto consider = [&](std::uint32_t id) {
    if (options.walkable_only && !areals_[id].walkable) return;
    if (areals_[id].ring.empty()) return;
    Vec2 q;
    const double d = boundary_distance(id, px, py, &q);
    if (d > limit) return;
    if (d < best_d || (d == best_d && best && id < best->areal)) {
      best_d = d;
      best = NearestResult{id, q, static_cast<float>(d)};
    }
  };
  // Every areal, pruned by its box: exact whatever the grid lists (a grid only filters
  // candidates of a containment test, §16.3).
  for (std::uint32_t id = 0; id < areals_.size(); ++id) {
    const ArealShape& s = areals_[id];
    const double gx = std::max({static_cast<double>(s.min_x) - px, 0.0, px - static_cast<double>(s.max_x)});
    const double gy = std::max({static_cast<double>(s.min_y) - py, 0.0, py - static_cast<double>(s.max_y)});
    if (std::sqrt(gx * gx + gy * gy) > std::min(best_d, limit)) continue;
    consider(id);
  }
  return best;
}

std::span<const std::uint32_t> ArealMap::neighbours(std::uint32_t areal) const {
  if (areal >= areals_.size()) return {};
  return {adjacency_.data() + adjacency_start_[areal], adjacency_start_[areal + 1] - adjacency_start_[areal]};
}

}  // namespace sortie::nav
