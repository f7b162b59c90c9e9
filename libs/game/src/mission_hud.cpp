// The mission game's HUD (mission_game.hpp): objectives, selection, messages, speed, minimap and
// the outcome screen, drawn straight into the framebuffer after the scene.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "mission_game_draw.hpp"
#include "sortie/move/components.hpp"
#include "sortie/render/font.hpp"
#include "sortie/scenario/super_ai.hpp"
#include "sortie/world/world.hpp"

namespace sortie::game {

namespace {

constexpr render::Rgba8 kPanel{12, 16, 22, 170};
constexpr render::Rgba8 kText{232, 236, 240, 255};
constexpr render::Rgba8 kDim{160, 170, 180, 255};
constexpr render::Rgba8 kDone{110, 230, 120, 255};
constexpr render::Rgba8 kFailed{240, 90, 80, 255};
constexpr render::Rgba8 kGold{255, 214, 80, 255};

std::string clock_text(std::uint64_t tick) {
  const std::uint64_t s = tick * world::kDefaultStepUs / 1'000'000;
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

void fill_rect(render::Framebuffer& t, Rect r, render::Rgba8 color) {
  const int x0 = std::max(0, r.x), y0 = std::max(0, r.y);
  const int x1 = std::min(static_cast<int>(t.width()), r.x + r.width);
  const int y1 = std::min(static_cast<int>(t.height()), r.y + r.height);
  if (x0 >= x1 || y0 >= y1) return;
  const auto pitch = static_cast<std::size_t>(t.width());
  const auto n = static_cast<std::size_t>(x1 - x0);
  const std::span<std::uint32_t> pixels = t.color();
  if (color.a == 255) {
    for (int y = y0; y < y1; ++y)
      std::fill_n(pixels.begin() +
                      static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x0)),
                  n, render::pack(color));
    return;
  }
  // Per channel (src a + dst (255 - a) + 127) / 255, opaque result, on the packed words (R in
  // the low byte) in a loop the compiler vectorises.
  const std::uint32_t a = color.a, ia = 255 - a;
  const std::uint32_t sr = color.r * a + 127, sg = color.g * a + 127, sb = color.b * a + 127;
  for (int y = y0; y < y1; ++y) {
    std::uint32_t* row = pixels.data() + static_cast<std::size_t>(y) * pitch + static_cast<std::size_t>(x0);
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint32_t d = row[k];
      const std::uint32_t cr = (sr + (d & 0xffu) * ia) / 255, cg = (sg + ((d >> 8) & 0xffu) * ia) / 255;
      const std::uint32_t cb = (sb + ((d >> 16) & 0xffu) * ia) / 255;
      row[k] = cr | cg << 8 | cb << 16 | 0xff000000u;
    }
  }
}

void frame_rect(render::Framebuffer& t, Rect r, render::Rgba8 color) {
  fill_rect(t, {r.x, r.y, r.width, 1}, color);
  fill_rect(t, {r.x, r.y + r.height - 1, r.width, 1}, color);
  fill_rect(t, {r.x, r.y, 1, r.height}, color);
  fill_rect(t, {r.x + r.width - 1, r.y, 1, r.height}, color);
}

void shadow_text(render::Framebuffer& t, int x, int y, std::string_view text, render::Rgba8 color, int scale) {
  render::draw_text(t, x + scale, y + scale, text, render::kBlack, scale);
  render::draw_text(t, x, y, text, color, scale);
}

render::Rgba8 unit_color(bool own, bool hostile) {
  if (own) return {80, 240, 110, 255};
  if (hostile) return {250, 70, 60, 255};
  return {230, 220, 120, 255};
}

void MissionGame::Draw::build_minimap(const mission::LoadedMission& mission, int size) {
  minimap_size = std::max(16, size);
  bounds = mission::map_bounds(*mission.data);
  const auto& tma = mission.data->tma;
  const std::string player = scenario::player_clan(tma);
  hostile.assign(tma.clans.size(), false);
  for (std::size_t i = 0; i < tma.clans.size(); ++i) {
    const auto& c = tma.clans[i];
    for (const auto& r : c.relations) {
      if (r.other_clan == player && r.value < 0) hostile[i] = true;
      if (c.name != player || r.value >= 0) continue;
      for (std::size_t k = 0; k < tma.clans.size(); ++k)
        if (tma.clans[k].name == r.other_clan) hostile[k] = true;
    }
  }
  // Relief: a colour by height band (shore, grass, earth, rock, snow), shaded by the slope
  // facing the north-west light.
  const auto n = static_cast<std::size_t>(minimap_size);
  minimap.assign(n * n, render::Rgba8{30, 40, 50, 255});
  const auto* terrain = mission.movement ? mission.movement->terrain.get() : nullptr;
  if (terrain == nullptr) return;
  std::vector<float> heights(n * n, std::numeric_limits<float>::quiet_NaN());
  float lo = std::numeric_limits<float>::max(), hi = std::numeric_limits<float>::lowest();
  const float w = bounds.max_x - bounds.min_x, h = bounds.max_y - bounds.min_y;
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      const float x = bounds.min_x + (static_cast<float>(i) + 0.5f) / static_cast<float>(n) * w;
      const float y = bounds.max_y - (static_cast<float>(j) + 0.5f) / static_cast<float>(n) * h;
      if (const auto z = terrain->height_at(x, y)) {
        heights[j * n + i] = *z;
        lo = std::min(lo, *z);
        hi = std::max(hi, *z);
      }
    }
  const float range = std::max(1e-3f, hi - lo);
  constexpr std::array<render::Rgba8, 5> kBands{
      {{196, 180, 130, 255}, {92, 132, 64, 255}, {122, 104, 74, 255}, {128, 124, 118, 255}, {232, 236, 240, 255}}};
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      const float z = heights[j * n + i];
      if (std::isnan(z)) continue;
      const float t = (z - lo) / range;
      const std::size_t band = t < 0.2f ? 0 : t < 0.55f ? 1 : t < 0.8f ? 2 : t < 0.92f ? 3 : 4;
      const float zl = i > 0 && !std::isnan(heights[j * n + i - 1]) ? heights[j * n + i - 1] : z;
      const float zu = j > 0 && !std::isnan(heights[(j - 1) * n + i]) ? heights[(j - 1) * n + i] : z;
      const float cell = w / static_cast<float>(n);
      const float shade = std::clamp(1.0f + ((zl - z) + (zu - z)) / cell * 0.35f, 0.7f, 1.2f);
      const render::Rgba8 c = kBands[band];
      const auto s = [shade](std::uint8_t v) {
        return static_cast<std::uint8_t>(std::clamp(static_cast<float>(v) * shade, 0.0f, 255.0f));
      };
      minimap[j * n + i] = {s(c.r), s(c.g), s(c.b), 255};
    }
}

void draw_menu(render::Framebuffer& t, std::string_view title, std::span<const std::string> items,
               std::size_t selected) {
  const int width = static_cast<int>(t.width()), height = static_cast<int>(t.height());
  const int scale = width >= 1600 ? 3 : 2;
  const int line = render::kLineHeight * scale + 8;
  int w = render::text_width(title, scale + 1);
  for (const auto& i : items) w = std::max(w, render::text_width(i, scale) + 24);
  const int h = line * static_cast<int>(items.size() + 1) + 40;
  const Rect r{width / 2 - w / 2 - 24, height / 2 - h / 2, w + 48, h};
  fill_rect(t, {0, 0, width, height}, render::Rgba8{0, 0, 0, 110});
  fill_rect(t, r, render::Rgba8{16, 20, 28, 230});
  frame_rect(t, r, kGold);
  shadow_text(t, width / 2 - render::text_width(title, scale + 1) / 2, r.y + 14, title, kGold, scale + 1);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const int y = r.y + 24 + line * static_cast<int>(i + 1);
    const bool on = i == selected;
    if (on) fill_rect(t, {r.x + 10, y - 4, r.width - 20, line - 2}, render::Rgba8{60, 70, 90, 255});
    const std::string text = on ? "> " + items[i] : items[i];
    shadow_text(t, width / 2 - render::text_width(text, scale) / 2, y, text, on ? kGold : kText, scale);
  }
}

Rect MissionGame::minimap_rect(int width, int height) const {
  // The image's size, smaller in a small window (a quarter of the width, a third of the height).
  const int s = std::clamp(std::min(width / 4, height / 3), std::min(48, draw_->minimap_size), draw_->minimap_size);
  return {width - s - 12, height - s - 12, s, s};
}

std::optional<core::Vec2> MissionGame::minimap_point(int x, int y, int width, int height) const {
  const Rect r = minimap_rect(width, height);
  if (!r.contains(x, y)) return std::nullopt;
  const auto& b = draw_->bounds;
  const float u = (static_cast<float>(x - r.x) + 0.5f) / static_cast<float>(r.width);
  const float v = (static_cast<float>(y - r.y) + 0.5f) / static_cast<float>(r.height);
  return core::Vec2{b.min_x + u * (b.max_x - b.min_x), b.max_y - v * (b.max_y - b.min_y)};
}

std::vector<std::string> MissionGame::objective_lines() const {
  std::vector<std::string> out;
  const auto s = play_.summary();
  if (!s) return out;
  for (const auto& o : s->objectives) {
    const char* mark = o.status == scenario::ObjectiveStatus::completed ? "[x]"
                       : o.status == scenario::ObjectiveStatus::failed  ? "[!]"
                                                                        : "[ ]";
    out.push_back(fmt::format("{} {}", mark, o.text));
  }
  return out;
}

std::vector<std::string> MissionGame::selection_lines() const {
  std::vector<std::string> out;
  if (selection_.empty()) return out;
  const world::World& w = play_.world();
  const world::WorldObject* o = live_object(w, selection_.front());
  if (o == nullptr) return out;
  const auto& clans = play_.mission().data->tma.clans;
  const auto clan = play_.clan_of(o->id());
  const std::string clan_name = clan && *clan >= 0 && static_cast<std::size_t>(*clan) < clans.size()
                                    ? clans[static_cast<std::size_t>(*clan)].name
                                    : std::string("?");
  out.push_back(selection_.size() == 1 ? std::string("1 unit selected")
                                       : fmt::format("{} units selected", selection_.size()));
  out.push_back(fmt::format("{}  ({})  clan {}", o->prototype_key, o->id().to_string(), clan_name));
  std::string state = "idle", order = "none";
  if (const auto* b = o->components.get<move::BehaviorState>()) {
    state = std::string(move::to_string(b->mode));
    if (b->mode == move::BehaviorMode::planning || b->mode == move::BehaviorMode::following)
      order = fmt::format("go to {:.0f}, {:.0f}", b->target.x, b->target.y);
    if (b->mode == move::BehaviorMode::manual) order = "piloted";
    if (b->mode == move::BehaviorMode::failed) order = fmt::format("failed ({})", move::to_string(b->failure));
  }
  if (const auto t = play_.following(o->id())) order = "follow " + t->to_string();
  out.push_back(fmt::format("state {}  order {}", state, order));
  const auto& p = o->transform.position;
  out.push_back(fmt::format("at {:.1f}, {:.1f}, {:.1f}", p.x, p.y, p.z));
  return out;
}

std::string MissionGame::outcome_line() const {
  const auto s = play_.summary();
  if (!s || s->outcome == scenario::Outcome::none) return {};
  return fmt::format("{} at {} (tick {}): {}",
                     s->outcome == scenario::Outcome::win ? "MISSION COMPLETE" : "MISSION FAILED", clock_text(s->tick),
                     s->tick, s->reason);
}

void MissionGame::draw_hud(render::Framebuffer& t, const render::Camera& camera,
                           const render::Viewport& viewport) const {
  const int width = static_cast<int>(t.width()), height = static_cast<int>(t.height());
  const int scale = width >= 1600 ? 2 : 1;
  const int line = render::kLineHeight * scale + 2;
  const auto summary = play_.summary();
  const std::uint64_t tick = play_.tick_number();

  // Objectives, top right.
  const auto objectives = objective_lines();
  if (!objectives.empty()) {
    int text_w = render::text_width("OBJECTIVES", scale);
    for (const auto& l : objectives) text_w = std::max(text_w, render::text_width(l, scale));
    const Rect r{width - text_w - 28, 10, text_w + 16, line * static_cast<int>(objectives.size() + 1) + 10};
    fill_rect(t, r, kPanel);
    shadow_text(t, r.x + 8, r.y + 6, "OBJECTIVES", kGold, scale);
    for (std::size_t i = 0; i < objectives.size(); ++i) {
      const auto st = summary->objectives[i].status;
      const render::Rgba8 c = st == scenario::ObjectiveStatus::completed ? kDone
                              : st == scenario::ObjectiveStatus::failed  ? kFailed
                                                                         : kText;
      shadow_text(t, r.x + 8, r.y + 6 + line * static_cast<int>(i + 1), objectives[i], c, scale);
    }
  }

  // Time, speed and pause, top centre; the newest messages under them.
  std::string status = "mission time " + clock_text(tick);
  if (paused_)
    status += "   PAUSED";
  else if (speed_ > 1)
    status += fmt::format("   {}x", speed_);
  if (pilot_) status += "   PILOTING " + pilot_->to_string();
  const int sw = render::text_width(status, scale);
  fill_rect(t, {width / 2 - sw / 2 - 8, 8, sw + 16, line + 6}, kPanel);
  shadow_text(t, width / 2 - sw / 2, 12, status, paused_ ? kGold : kText, scale);
  const std::uint64_t keep_ticks = options_.message_seconds * 1'000'000ull / world::kDefaultStepUs;
  int my = 16 + line + 8;
  const auto& messages = play_.messages();
  const std::size_t first = messages.size() > 4 ? messages.size() - 4 : 0;
  for (std::size_t i = first; i < messages.size(); ++i) {
    if (messages[i].tick + keep_ticks < tick) continue;
    const int mw = render::text_width(messages[i].text, scale);
    fill_rect(t, {width / 2 - mw / 2 - 6, my - 3, mw + 12, line + 4}, render::Rgba8{40, 30, 10, 150});
    shadow_text(t, width / 2 - mw / 2, my, messages[i].text, kGold, scale);
    my += line + 6;
  }

  // The selection, bottom left.
  const auto sel = selection_lines();
  if (!sel.empty()) {
    int text_w = 0;
    for (const auto& l : sel) text_w = std::max(text_w, render::text_width(l, scale));
    const Rect r{10, height - line * static_cast<int>(sel.size()) - 22, text_w + 16,
                 line * static_cast<int>(sel.size()) + 10};
    fill_rect(t, r, kPanel);
    for (std::size_t i = 0; i < sel.size(); ++i)
      shadow_text(t, r.x + 8, r.y + 6 + line * static_cast<int>(i), sel[i], i == 0 ? kGold : kText, scale);
  }

  // The minimap, bottom right: relief, units as clan-coloured dots, the camera's footprint.
  const Rect mm = minimap_rect(width, height);
  const Draw& d = *draw_;
  fill_rect(t, {mm.x - 3, mm.y - 3, mm.width + 6, mm.height + 6}, kPanel);
  for (int j = 0; j < mm.height; ++j)
    for (int i = 0; i < mm.width; ++i) {
      const int x = mm.x + i, y = mm.y + j;
      if (x < 0 || y < 0 || x >= width || y >= height) continue;
      const int si = i * d.minimap_size / mm.width, sj = j * d.minimap_size / mm.height;
      t.set_pixel(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                  d.minimap[static_cast<std::size_t>(sj * d.minimap_size + si)]);
    }
  const auto& b = d.bounds;
  const auto to_map = [&](float x, float y) {
    const float u = (x - b.min_x) / std::max(1e-3f, b.max_x - b.min_x);
    const float v = (b.max_y - y) / std::max(1e-3f, b.max_y - b.min_y);
    return std::pair<int, int>{mm.x + static_cast<int>(std::floor(u * static_cast<float>(mm.width))),
                               mm.y + static_cast<int>(std::floor(v * static_cast<float>(mm.height)))};
  };
  const world::World& w = play_.world();
  for (const world::Handle h : w.queue()) {
    const world::WorldObject* o = w.find(h);
    if (o == nullptr || o->pending_delete()) continue;
    const move::Body* body = o->components.get<move::Body>();
    const auto clan = o->properties.get_int("clan");
    const auto [px, py] = to_map(o->transform.position.x, o->transform.position.y);
    if (!mm.contains(px, py)) continue;
    if (body == nullptr || body->is_static || !clan) {
      if (body != nullptr) fill_rect(t, {px, py, 2, 2}, render::Rgba8{40, 40, 40, 200});
      continue;
    }
    const auto c = static_cast<std::size_t>(*clan);
    const bool selected = std::binary_search(selection_.begin(), selection_.end(), o->id());
    // Green: the units the player commands (a joined player's own, whatever their clan); the
    // others by their clan's stance toward the player's clan.
    const bool hostile = c < d.hostile.size() && d.hostile[c];
    const render::Rgba8 col = unit_color(play_.commandable(o->id()), hostile);
    fill_rect(t, {px - 2, py - 2, 5, 5}, selected ? render::kWhite : render::kBlack);
    fill_rect(t, {px - 1, py - 1, 3, 3}, col);
  }
  // Footprint: the viewport's corners cast onto the plane of the map's mean height.
  const float plane_z =
      (scene_.terrain_bounds().empty() ? 0.0f : 0.5f * (scene_.terrain_bounds().min.z + scene_.terrain_bounds().max.z));
  std::vector<std::pair<int, int>> corners;
  const float vx[4] = {0.0f, static_cast<float>(viewport.width), static_cast<float>(viewport.width), 0.0f};
  const float vy[4] = {static_cast<float>(viewport.height) * 0.35f, static_cast<float>(viewport.height) * 0.35f,
                       static_cast<float>(viewport.height), static_cast<float>(viewport.height)};
  for (int k = 0; k < 4; ++k) {
    const auto a = camera.unproject(vx[k], vy[k], 0.0f, viewport);
    const auto z = camera.unproject(vx[k], vy[k], 1.0f, viewport);
    if (!a || !z || std::fabs(z->z - a->z) < 1e-6f) continue;
    const float s = std::clamp((plane_z - a->z) / (z->z - a->z), 0.0f, 1.0f);
    corners.push_back(to_map(a->x + (z->x - a->x) * s, a->y + (z->y - a->y) * s));
  }
  for (std::size_t k = 0; corners.size() == 4 && k < 4; ++k) {
    const auto [x0, y0] = corners[k];
    const auto [x1, y1] = corners[(k + 1) % 4];
    const int steps = std::max(std::abs(x1 - x0), std::abs(y1 - y0)) + 1;
    for (int s = 0; s <= std::min(steps, 8192); ++s) {
      const int x = x0 + (x1 - x0) * s / steps, y = y0 + (y1 - y0) * s / steps;
      if (mm.contains(x, y) && x >= 0 && y >= 0 && x < width && y < height)
        t.set_pixel(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), render::kWhite);
    }
  }
  frame_rect(t, {mm.x - 1, mm.y - 1, mm.width + 2, mm.height + 2}, kDim);

  // The outcome screen.
  if (summary && summary->outcome != scenario::Outcome::none) {
    fill_rect(t, {0, 0, width, height}, render::Rgba8{0, 0, 0, 140});
    const bool win = summary->outcome == scenario::Outcome::win;
    const std::string title = win ? "MISSION COMPLETE" : "MISSION FAILED";
    const int big = 4 * scale;
    const int tw = render::text_width(title, big);
    const int cy = height / 2 - 40 * scale;
    shadow_text(t, width / 2 - tw / 2, cy, title, win ? kDone : kFailed, big);
    std::vector<std::string> lines{summary->reason,
                                   fmt::format("time {}  (tick {})", clock_text(summary->tick), summary->tick), ""};
    for (const auto& l : objectives) lines.push_back(l);
    lines.emplace_back("");
    lines.emplace_back("Esc: menu (restart, load, quit)");
    int y = cy + render::kLineHeight * big + 16;
    for (const auto& l : lines) {
      const int lw = render::text_width(l, scale);
      shadow_text(t, width / 2 - lw / 2, y, l, kText, scale);
      y += line + 2;
    }
  }
}

}  // namespace sortie::game
