// The debug overlay (lanes, solver candidates and scores, leash tension) and the HUD text.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "sortie/render/font.hpp"
#include "sortie/squad/formation.hpp"
#include "sortie/squad/state.hpp"
#include "squad_view_state.hpp"

namespace sortie::game::detail {

namespace {

using render::Rgba8;

void line(State& st, const SquadSnapshot& s, core::Vec2 a, core::Vec2 b, float z, Rgba8 ca, Rgba8 cb) {
  const auto base = static_cast<std::uint32_t>(st.lines.positions.size());
  st.lines.positions.push_back(to_render(s, a, z));
  st.lines.positions.push_back(to_render(s, b, z));
  st.lines.colors.push_back(ca);
  st.lines.colors.push_back(cb);
  st.lines.indices.push_back(base);
  st.lines.indices.push_back(base + 1);
}

void circle(State& st, const SquadSnapshot& s, core::Vec2 c, float r, Rgba8 color) {
  constexpr int kSeg = 56;
  for (int k = 0; k < kSeg; ++k) {
    const float a0 = 2.0f * core::kPi * static_cast<float>(k) / kSeg;
    const float a1 = 2.0f * core::kPi * static_cast<float>(k + 1) / kSeg;
    line(st, s, c + core::Vec2{std::cos(a0), std::sin(a0)} * r, c + core::Vec2{std::cos(a1), std::sin(a1)} * r, 0.02f,
         color, color);
  }
}

Rgba8 lerp(Rgba8 a, Rgba8 b, float t) {
  t = std::clamp(t, 0.0f, 1.0f);
  const auto ch = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(
        std::lround(static_cast<float>(x) + (static_cast<float>(y) - static_cast<float>(x)) * t));
  };
  return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b), 255};
}

render::Label world_label(const SquadSnapshot& s, std::string text, core::Vec2 at, float z, Rgba8 color) {
  render::Label l;
  l.text = std::move(text);
  l.position = to_render(s, at, z);
  l.color = color;
  return l;
}

render::Label screen_label(std::string text, float x, float y, Rgba8 color, int scale) {
  render::Label l;
  l.text = std::move(text);
  l.space = render::Label::Space::screen;
  l.position = {x, y, 0.0f};
  l.color = color;
  l.scale = scale;
  return l;
}

int hud_scale(const SquadViewOptions& o) {
  return o.width >= 1000 ? 2 : 1;
}

}  // namespace

void build_overlay(State& st, const SquadSnapshot& s, const SquadViewOptions& o) {
  const Rgba8 fire{255, 150, 40, 255};
  const Rgba8 intent{60, 220, 255, 255};
  for (const squad::Lane& l : s.lanes)
    line(st, s, l.from, l.to, 0.5f, l.intent ? intent : fire, l.intent ? intent : fire);
  // Solver candidates of the last solve of each live agent.
  for (std::size_t i = 0; i < s.traces.size() && i < s.agents.size(); ++i) {
    const squad::Agent& a = s.agents[i];
    const squad::SolverTrace& tr = s.traces[i];
    // Only a recent solve (the solver runs every 0.25 s while holding).
    if (!a.alive || tr.tick == 0 || tr.tick + 60 < s.tick) continue;
    float lo = 1e9f;
    float hi = -1e9f;
    for (std::size_t k = 0; k < tr.score.size(); ++k) {
      if (tr.reject[k] != squad::Reject::none) continue;
      lo = std::min(lo, tr.score[k]);
      hi = std::max(hi, tr.score[k]);
    }
    for (std::size_t k = 0; k < tr.pos.size(); ++k) {
      Rgba8 c{80, 80, 90, 255};
      if (tr.reject[k] == squad::Reject::none) {
        const float t = hi > lo ? (tr.score[k] - lo) / (hi - lo) : 1.0f;
        c = lerp({230, 40, 40, 255}, {60, 240, 90, 255}, t);
      }
      st.points.positions.push_back(to_render(s, tr.pos[k], 0.03f));
      st.points.colors.push_back(c);
    }
    if (tr.chosen >= 0 && static_cast<std::size_t>(tr.chosen) < tr.pos.size()) {
      const auto k = static_cast<std::size_t>(tr.chosen);
      circle(st, s, tr.pos[k], 0.16f, {255, 255, 255, 255});
      st.labels.push_back(world_label(s, fmt::format("{:.0f}", tr.score[k]), tr.pos[k], 0.1f, {230, 230, 230, 255}));
      line(st, s, a.pos, tr.pos[k], 0.04f, {200, 200, 200, 255}, {255, 255, 255, 255});
    }
  }
  // Leash: disc to each agent, coloured by the distance against the hard limit; the circles.
  const float soft = s.tuning.anchor_leash;
  const float hard = squad::hard_limit(s.tuning);
  for (const squad::Squad& q : s.squads) {
    circle(st, s, q.disc, hard, {200, 40, 40, 255});
    circle(st, s, q.disc, soft, {200, 180, 60, 255});
    circle(st, s, q.disc, s.tuning.cohesion_radius, {90, 160, 90, 255});
    for (std::uint32_t k = 0; k < q.agent_count; ++k) {
      const squad::Agent& a = s.agents[q.first_agent + k];
      if (!a.alive) continue;
      const float d = core::distance(a.pos, q.disc);
      line(st, s, q.disc, a.pos, 0.05f, {120, 120, 120, 255}, lerp({80, 220, 80, 255}, {255, 40, 40, 255}, d / hard));
    }
    st.labels.push_back(world_label(
        s, fmt::format("leash {:.2f}  urgency {:.2f}{}", q.leash_distance, q.urgency, q.sprinting ? "  SPRINT" : ""),
        q.disc, 0.0f, lerp({160, 230, 160, 255}, {255, 80, 60, 255}, q.urgency)));
  }
  // Blocked flags.
  for (const squad::Agent& a : s.agents) {
    if (!a.alive) continue;
    if (a.blocked_by_ally) st.labels.push_back(world_label(s, "ally", a.pos, 1.1f, intent));
    if (a.blocked_by_wall) st.labels.push_back(world_label(s, "wall", a.pos, 1.1f, {180, 180, 180, 255}));
  }
  const int sc = hud_scale(o);
  const float x =
      static_cast<float>(o.width) - static_cast<float>(render::text_width("lanes 00 (intent 00)  ", sc)) - 12.0f;
  std::size_t intents = 0;
  for (const squad::Lane& l : s.lanes) intents += l.intent ? 1 : 0;
  float y = 12.0f;
  const Rgba8 panel{170, 200, 170, 255};
  const auto add = [&](std::string text) {
    st.labels.push_back(screen_label(std::move(text), x, y, panel, sc));
    y += static_cast<float>(render::kLineHeight * sc + 2);
  };
  add(fmt::format("OVERLAY  tick {}", s.tick));
  add(fmt::format("lanes {} (intent {})", s.lanes.size(), intents));
  add(fmt::format("solves {}  commits {}", s.stats.solves, s.stats.commits));
  add(fmt::format("shots {}  vetoed {}", s.stats.shots, s.stats.shots_vetoed));
  add(fmt::format("FRIENDLY_HITS {}", s.stats.friendly_hits));
}

void build_hud(State& st, const SquadSnapshot& s, const SquadViewOptions& o) {
  const int sc = hud_scale(o);
  const Rgba8 bone{200, 190, 170, 255};
  const Rgba8 dim{130, 120, 110, 255};
  const Rgba8 blood{200, 40, 30, 255};
  const float line_h = static_cast<float>(render::kLineHeight * sc + 4);
  std::uint32_t hostiles = 0;
  for (const squad::Target& t : s.targets) hostiles += t.alive ? 1 : 0;
  st.labels.push_back(screen_label(fmt::format("SQUAD {}/{}", s.live_agents, s.agents.size()), 16.0f, 14.0f,
                                   s.live_agents < s.agents.size() ? blood : bone, sc));
  st.labels.push_back(
      screen_label(fmt::format("CONTACTS {}   KILLS {}", hostiles, s.stats.kills), 16.0f, 14.0f + line_h, dim, sc));
  if (s.stats.friendly_hits > 0) {
    st.labels.push_back(
        screen_label(fmt::format("FRIENDLY FIRE {}", s.stats.friendly_hits), 16.0f, 14.0f + 2 * line_h, blood, sc));
  }
  if (!s.squads.empty()) {
    const squad::Squad& q = s.squads.front();
    const auto total = static_cast<std::uint64_t>(s.seconds() * 10.0);
    std::string state(squad::to_string(q.state));  // upper-cased with the rest of the line
    if (q.sprinting) state = "SPRINT";
    std::string text = fmt::format("{:02}:{:02}.{}   {}   {}", total / 600, (total / 10) % 60, total % 10, state,
                                   squad::to_string(q.formation));
    if (q.manual) text += "   MANUAL AIM";
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    st.labels.push_back(screen_label(std::move(text), 16.0f, static_cast<float>(o.height) - 14.0f - line_h, bone, sc));
  }
}

}  // namespace sortie::game::detail
