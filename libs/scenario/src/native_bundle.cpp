// The native script bundles as a scenario part (native_bundle.hpp; docs/script-bundles.md).
#include "sortie/scenario/native_bundle.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "sortie/core/json.hpp"

namespace sortie::scenario {

using core::Diagnostic;
using iron3d::ScrInstruction;
using iron3d::VarType;

namespace {

bool native_scalar_equal(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return false;
  const auto x = std::bit_cast<std::uint32_t>(a);
  const auto y = std::bit_cast<std::uint32_t>(b);
  return x == y || ((x & 0x7FFFFFFFu) == 0 && (y & 0x7FFFFFFFu) == 0);
}

std::string native_selector_text(const iron3d::ScrSelector& s) {
  switch (s.kind) {
    case iron3d::ScrSelector::Kind::handler:
      return fmt::format("handler {}", s.raw);
    case iron3d::ScrSelector::Kind::sentinel:
      return "sentinel";
    case iron3d::ScrSelector::Kind::unknown:
      break;
  }
  return fmt::format("unknown selector 0x{:08X}", s.raw);
}

std::string native_words_text(const ScrInstruction& ins) {
  return fmt::format("w1..w4 {} {} {} {}, refs [{}], w6 {}", ins.words[1], ins.words[2], ins.words[3], ins.words[4],
                     fmt::join(ins.references, ", "), ins.w6);
}

}  // namespace

Handler2Result submit_event_record(std::vector<EventRecord>& records, const Handler2Input& in) {
  const auto k4 = std::bit_cast<std::uint32_t>(in.slot4);
  const auto k5 = std::bit_cast<std::uint32_t>(in.slot5);
  for (std::size_t i = 0; i < records.size(); ++i) {
    EventRecord& r = records[i];
    if (r.slot0 != in.slot0 || r.key4_bits != k4 || r.key5_bits != k5) continue;
    if (native_scalar_equal(r.scalar1, in.slot1)) return {i, false, false};
    r.scalar1 = in.slot1;
    r.scalar6 = in.slot6;
    r.counter += r.increment;  // u32: wraps
    ++r.refreshes;
    return {i, false, true};
  }
  EventRecord r;
  r.slot0 = in.slot0;
  r.key4_bits = k4;
  r.key5_bits = k5;
  r.scalar1 = in.slot1;
  r.counter = in.slot2;
  r.increment = in.slot2;
  r.word3 = in.slot3;
  r.scalar6 = in.slot6;
  r.base = in.base;
  records.push_back(std::move(r));
  return {records.size() - 1, true, false};
}

std::optional<std::size_t> handler15_arity(std::uint32_t mode) {
  switch (mode) {
    case 0:
      return 9;
    case 0x0201:
    case 0x0203:
    case 0x0204:
    case 0x0205:
      return 10;
    case 0x0202:
      return 11;
    default:
      return std::nullopt;
  }
}

bool is_evaluator_result_tag(std::uint32_t tag) {
  return tag == 1 || tag == 0x12 || tag == 0x13;
}

EvaluatorView classify_evaluator(const EvaluatorRecord& record) {
  EvaluatorView v;
  if (record.tag >= 1 && record.tag <= 5) {
    v.branch = static_cast<EvaluatorBranch>(record.tag);
    v.subtype_ok = record.subtype == (record.tag <= 3 ? 0u : 1u);
  }
  static constexpr std::array<std::string_view, 6> kWhat = {
      "no branch (tags 1..5 known)",
      "object lookup through the interface at this+0x60+0x35c (virtual +0x1c)",
      "object lookup, then virtual +0x10/+0x18; result tags 1, 0x12, 0x13",
      "object lookup, virtual +0x44 compared with the current object value",
      "payload indexes the container at this+0x4c; child indices looked up (guard A)",
      "payload indexes the container at this+0x4c; child indices looked up (guard B)"};
  v.text = fmt::format("evaluator tag {} subtype {} payload {}: {}{}", record.tag, record.subtype, record.payload,
                       kWhat[static_cast<std::size_t>(v.branch)],
                       v.branch == EvaluatorBranch::none ? ""
                       : v.subtype_ok                    ? ""
                                      : fmt::format(" (subtype must be {}: no completion)", record.tag <= 3 ? 0 : 1));
  return v;
}

void trace_evaluator(ScenarioContext& ctx, const EvaluatorRecord& record) {
  if (ctx.trace) ctx.trace("ai", classify_evaluator(record).text);
}

// One event being run: where, for traces and findings.
struct NativeBundlePart::Run {
  ScenarioContext& ctx;
  ClanScript& clan;
  const assets::ScriptBundle& bundle;
  std::string event;
  std::size_t instruction = 0;
  bool is_init = false;

  [[nodiscard]] std::string where() const {
    return fmt::format("clan {} '{}' event '{}' [{}]", clan.clan_index, clan.clan_name, event, instruction);
  }
  void trace(std::string text) const {
    if (ctx.trace) ctx.trace("ai", fmt::format("{}: {}", where(), text));
  }
  // The value of reference `pos` of `ins` as a declaration index, or a diagnostic.
  core::Result<std::uint32_t> ref(const ScrInstruction& ins, std::size_t pos, std::string_view handler) const {
    if (pos >= ins.references.size())
      return core::fail(
          Diagnostic::error("native.reference_missing", fmt::format("{}: {} needs reference {}", where(), handler, pos))
              .expect(fmt::format("> {} references", pos), fmt::format("{}", ins.references.size())));
    const std::uint32_t index = ins.references[pos];
    if (index >= clan.values.size())
      return core::fail(
          Diagnostic::error("native.reference_range",
                            fmt::format("{}: {} reference {} is outside the varset", where(), handler, pos))
              .expect(fmt::format("< {}", clan.values.size()), fmt::format("{}", index)));
    return index;
  }
  // A DWORD read: float declarations need the unrecovered x87 __ftol, so they are refused.
  core::Result<std::uint32_t> dword(const ScrInstruction& ins, std::size_t pos, std::string_view handler) const {
    SORTIE_TRY(const std::uint32_t index, ref(ins, pos, handler));
    if (clan.values[index].type != VarType::dword)
      return core::fail(Diagnostic::error("native.float_operand",
                                          fmt::format("{}: {} reference {} is a float declaration (its DWORD read "
                                                      "is the unrecovered x87 __ftol)",
                                                      where(), handler, pos))
                            .expect("a DWORD declaration", fmt::format("declaration {}", index)));
    return clan.values[index].bits;
  }
  // A float read of kinds 3 (float) / 5 (unsigned): the value as a float.
  core::Result<float> scalar(const ScrInstruction& ins, std::size_t pos, std::string_view handler) const {
    SORTIE_TRY(const std::uint32_t index, ref(ins, pos, handler));
    const NativeValue& v = clan.values[index];
    return v.type == VarType::float32 ? std::bit_cast<float>(v.bits) : static_cast<float>(v.bits);
  }
};

NativeBundlePart::NativeBundlePart(OutcomeFn outcome) : outcome_(std::move(outcome)) {}

const ClanScript* NativeBundlePart::clan(std::size_t clan_index) const {
  for (const auto& c : clans_)
    if (c.clan_index == clan_index) return &c;
  return nullptr;
}

core::Status NativeBundlePart::raise(std::size_t clan_index, std::string event) {
  if (raised_.size() >= kMaxRaisedEvents)
    return core::fail(Diagnostic::error("native.raise_limit", "too many native events waiting for the next step")
                          .expect(fmt::format("<= {}", kMaxRaisedEvents), "more"));
  raised_.emplace_back(clan_index, std::move(event));
  return {};
}

core::Status NativeBundlePart::start(ScenarioContext& ctx) {
  data_ = ctx.facts.data;
  clans_.clear();
  started_ = true;
  if (!data_) return {};
  for (std::size_t b = 0; b < data_->scripts.size(); ++b) {
    const assets::ScriptBundle& bundle = data_->scripts[b];
    ClanScript c;
    c.clan_index = bundle.clan_index;
    c.clan_name = bundle.clan_name;
    c.bundle = b;
    if (bundle.varset)
      for (const auto& v : bundle.varset->vars)
        c.values.push_back({v.type, v.default_value.bits, v.min ? std::optional(v.min->bits) : std::nullopt,
                            v.max ? std::optional(v.max->bits) : std::nullopt});
    for (std::size_t e = 0; e < bundle.package.events.size(); ++e)
      c.events.emplace(bundle.package.events[e].name, static_cast<std::uint32_t>(e));
    clans_.push_back(std::move(c));
  }
  // MISSION_START: every clan's Init, in clan order.
  for (auto& c : clans_) {
    const auto it = c.events.find("Init");
    if (it == c.events.end()) continue;
    SORTIE_CHECK(dispatch(ctx, c, it->second, true));
  }
  return {};
}

core::Status NativeBundlePart::step(ScenarioContext& ctx) {
  auto pending = std::move(raised_);
  raised_.clear();
  for (auto& [clan_index, name] : pending) {
    ClanScript* c = nullptr;
    for (auto& cs : clans_)
      if (cs.clan_index == clan_index) c = &cs;
    if (c == nullptr) {
      if (ctx.trace) ctx.trace("ai", fmt::format("event '{}' for clan {}: the clan has no bundle", name, clan_index));
      continue;
    }
    const auto it = c->events.find(name);
    if (it == c->events.end()) {
      if (ctx.trace) ctx.trace("ai", fmt::format("clan {} '{}': no event '{}'", clan_index, c->clan_name, name));
      continue;
    }
    SORTIE_CHECK(dispatch(ctx, *c, it->second, false));
  }
  return {};
}

core::Status NativeBundlePart::dispatch(ScenarioContext& ctx, ClanScript& clan, std::uint32_t event_index,
                                        bool is_init) {
  const assets::ScriptBundle& bundle = data_->scripts[clan.bundle];
  const iron3d::ScrEvent& ev = bundle.package.events[event_index];
  Run run{ctx, clan, bundle, ev.name, 0, is_init};
  for (std::size_t i = 0; i < ev.instructions.size(); ++i) {
    run.instruction = i;
    ++clan.instructions_run;
    core::Status st = run_instruction(run, ev.instructions[i]);
    if (st) continue;
    if (is_init && st.error().code.starts_with("native.anchor")) return st;  // CreateSuperAI refuses the clan
    run.trace(fmt::format("skipped: {}", st.error().message));
    findings_.push_back(std::move(st.error()));
  }
  return {};
}

core::Status NativeBundlePart::run_instruction(Run& run, const ScrInstruction& ins) {
  const iron3d::ScrSelector sel = iron3d::scr_selector(ins.selector_word());
  if (sel.kind == iron3d::ScrSelector::Kind::handler) {
    switch (sel.raw) {
      case 2:
        return handler2(run, ins);
      case 8:
        return handler8(run, ins);
      case 15:
        return handler15(run, ins);
      case 19:
        return handler19(run, ins);
      case 30:
        return host_callback(run, ins, 0);
      case 57:
        return host_callback(run, ins, 2);
      case 0:
        run.trace(fmt::format("handler 0 (sets the execution context, VM flag +0x50 = 1): {}", native_words_text(ins)));
        break;
      default:
        run.trace(fmt::format("handler {}: contract not recovered, not run: {}", sel.raw, native_words_text(ins)));
    }
  } else {
    run.trace(fmt::format("{}: no handler: {}", native_selector_text(sel), native_words_text(ins)));
  }
  ++run.clan.traced;
  return {};
}

core::Status NativeBundlePart::handler2(Run& run, const ScrInstruction& ins) {
  Handler2Input in;
  SORTIE_TRY(const std::uint32_t base_index, run.ref(ins, 0, "handler 2"));
  SORTIE_TRY(in.slot0, run.dword(ins, 0, "handler 2"));
  SORTIE_TRY(in.slot1, run.scalar(ins, 1, "handler 2"));
  SORTIE_TRY(in.slot2, run.dword(ins, 2, "handler 2"));
  SORTIE_TRY(in.slot3, run.dword(ins, 3, "handler 2"));
  SORTIE_TRY(in.slot4, run.scalar(ins, 4, "handler 2"));
  SORTIE_TRY(in.slot5, run.scalar(ins, 5, "handler 2"));
  SORTIE_TRY(in.slot6, run.scalar(ins, 6, "handler 2"));
  in.base = run.bundle.varset->vars[base_index].name;
  const Handler2Result r = submit_event_record(run.clan.records, in);
  EventRecord& rec = run.clan.records[r.index];
  if (r.created) {
    if (auto it = run.clan.events.find(in.base + "_Start"); it != run.clan.events.end()) rec.start_event = it->second;
    if (auto it = run.clan.events.find(in.base + "_Continue"); it != run.clan.events.end())
      rec.continue_event = it->second;
  }
  run.trace(
      fmt::format("handler 2: record {} {} (key {}, 0x{:08X}, 0x{:08X}; counter {}; events {}_Start {}, "
                  "{}_Continue {}; not dispatched)",
                  r.index,
                  r.created     ? "created"
                  : r.refreshed ? "refreshed"
                                : "unchanged",
                  rec.slot0, rec.key4_bits, rec.key5_bits, rec.counter, rec.base, rec.start_event ? "bound" : "absent",
                  rec.base, rec.continue_event ? "bound" : "absent"));
  return {};
}

core::Status NativeBundlePart::handler8(Run& run, const ScrInstruction& ins) {
  SORTIE_TRY(const std::uint32_t state, run.dword(ins, 0, "handler 8"));
  std::uint32_t current = 0;
  if (const auto i = run.bundle.varset->find("dCurrentProblem")) current = run.clan.values[*i].bits;
  ProblemRecord* rec = nullptr;
  for (auto& p : run.clan.problems)
    if (p.index == current) rec = &p;
  if (rec == nullptr) {
    if (run.clan.problems.size() >= kMaxProblemRecords)
      return core::fail(Diagnostic::error("native.problem_limit", fmt::format("{}: handler 8: too many problem "
                                                                              "records",
                                                                              run.where()))
                            .expect(fmt::format("<= {}", kMaxProblemRecords), "more"));
    run.clan.problems.push_back({current, {}});
    rec = &run.clan.problems.back();
  }
  const std::size_t reset = state == 2 ? 4 : state == 3 ? 3 : 0;
  for (std::size_t w = 0; w < reset; ++w) rec->words[w] = 0;
  rec->words[6] = state;
  run.trace(fmt::format("handler 8: problem {} state {}{}; two callbacks not recovered", current, state,
                        reset ? fmt::format(" (words 0..{} and 6 reset)", reset - 1) : std::string()));
  return {};
}

core::Status NativeBundlePart::handler15(Run& run, const ScrInstruction& ins) {
  SORTIE_TRY(const std::uint32_t mode, run.dword(ins, 8, "handler 15"));
  const auto arity = handler15_arity(mode);
  run.trace(
      fmt::format("handler 15: target mode 0x{:04X}, {} references (expected {}); target lookup by ref0 and the "
                  "virtual call with ref2 not recovered, not run",
                  mode, ins.references.size(), arity ? fmt::format("{}", *arity) : std::string("unknown")));
  ++run.clan.traced;
  return {};
}

core::Status NativeBundlePart::handler19(Run& run, const ScrInstruction& ins) {
  const iron3d::TmaClan& clan = data_->tma.clans.at(run.clan.clan_index);
  for (const float a : {clan.anchor_x, clan.anchor_y})
    if (!std::isfinite(a) || a < 0.0f || a > kAnchorMax)
      return core::fail(Diagnostic::error("native.anchor", fmt::format("{}: handler 19: clan anchor outside 0..10000 "
                                                                       "(CreateSuperAI refuses it)",
                                                                       run.where()))
                            .expect("finite, 0..10000", fmt::format("({}, {})", clan.anchor_x, clan.anchor_y)));
  std::array<std::uint32_t, 3> index{};
  for (std::size_t k = 0; k < 3; ++k) {
    SORTIE_TRY(index[k], run.ref(ins, k, "handler 19"));
    if (run.clan.values[index[k]].type != VarType::dword)
      return core::fail(
          Diagnostic::error("native.float_operand",
                            fmt::format("{}: handler 19 writes a DWORD to a float declaration", run.where()))
              .expect("a DWORD declaration", fmt::format("declaration {}", index[k])));
  }
  // x87 __ftol truncates toward zero; the anchors are in 0..10000, so the cast is exact.
  const std::array<std::uint32_t, 3> v = {static_cast<std::uint32_t>(std::trunc(clan.anchor_x)),
                                          static_cast<std::uint32_t>(std::trunc(clan.anchor_y)),
                                          static_cast<std::uint32_t>(run.clan.clan_index)};
  for (std::size_t k = 0; k < 3; ++k) {
    NativeValue& target = run.clan.values[index[k]];
    target.bits = v[k];
    // A declared range is kept as data, not enforced: the seed does not say the VM clamps.
    if ((target.min && v[k] < *target.min) || (target.max && v[k] > *target.max))
      run.trace(fmt::format("handler 19: {} is outside declaration {}'s range {}..{} (kept)", v[k], index[k],
                            target.min.value_or(0), target.max.value_or(0xFFFFFFFFu)));
  }
  run.trace(fmt::format("handler 19: [{}] = {}, [{}] = {}, [{}] = {}", index[0], v[0], index[1], v[1], index[2], v[2]));
  return {};
}

core::Status NativeBundlePart::host_callback(Run& run, const ScrInstruction& ins, std::uint32_t mode) {
  const std::string_view handler = mode == 0 ? "handler 30" : "handler 57";
  SORTIE_TRY(const std::uint32_t first, run.dword(ins, 0, handler));
  SORTIE_TRY(const std::uint32_t second, run.dword(ins, 1, handler));
  if (mode != 0 || first != 0 || second > 1) {
    run.trace(
        fmt::format("{}: host callback ({}, {}, {}): command not recovered, not run", handler, mode, first, second));
    ++run.clan.traced;
    return {};
  }
  const std::pair<std::uint32_t, std::uint32_t> target{first, second};
  if (host_state_ == target) {
    run.trace(fmt::format("{}: host callback (0, 0, {}): repeated target state, no-op", handler, second));
    return {};
  }
  host_state_ = target;
  const Outcome outcome = second == 1 ? Outcome::win : Outcome::lose;
  std::string reason = fmt::format("native {}: mission {} (host callback (0, 0, {}))", run.where(),
                                   second == 1 ? "complete" : "failed", second);
  run.trace(
      fmt::format("{}: host callback (0, 0, {}): mission {}", handler, second, second == 1 ? "complete" : "failed"));
  if (outcome_) return outcome_(run.ctx, outcome, std::move(reason));
  return {};
}

void NativeBundlePart::image(nlohmann::json& out) const {
  core::Json clans = core::Json::array();
  for (const ClanScript& c : clans_) {
    core::Json values = core::Json::array();
    for (const NativeValue& v : c.values) values.push_back(v.bits);
    core::Json records = core::Json::array();
    for (const EventRecord& r : c.records)
      records.push_back(
          core::Json::array({r.slot0, r.key4_bits, r.key5_bits, r.counter, r.increment, r.word3, r.refreshes,
                             core::f32_json(r.scalar1), core::f32_json(r.scalar6), core::bytes_text_json(r.base),
                             r.start_event ? core::Json(*r.start_event) : core::Json(),
                             r.continue_event ? core::Json(*r.continue_event) : core::Json()}));
    core::Json problems = core::Json::array();
    for (const ProblemRecord& p : c.problems) {
      core::Json words = core::Json::array({p.index});
      for (const std::uint32_t w : p.words) words.push_back(w);
      problems.push_back(std::move(words));
    }
    clans.push_back(core::Json{{"clan", c.clan_index},
                               {"values", std::move(values)},
                               {"records", std::move(records)},
                               {"problems", std::move(problems)},
                               {"instructions", c.instructions_run},
                               {"traced", c.traced}});
  }
  core::Json raised = core::Json::array();
  for (const auto& [clan_index, name] : raised_)
    raised.push_back(core::Json::array({clan_index, core::bytes_text_json(name)}));
  out = core::Json{
      {"started", started_},
      {"clans", std::move(clans)},
      {"host_state", host_state_ ? core::Json::array({host_state_->first, host_state_->second}) : core::Json()},
      {"raised", std::move(raised)},
      {"findings", findings_.size()}};
}

void NativeBundlePart::encode(world::StateWriter& out) const {
  out.boolean(started_);
  out.u32(static_cast<std::uint32_t>(clans_.size()));
  for (const ClanScript& c : clans_) {
    out.u32(static_cast<std::uint32_t>(c.clan_index));
    out.u32(static_cast<std::uint32_t>(c.values.size()));
    for (const NativeValue& v : c.values) out.u32(v.bits);
    out.u32(static_cast<std::uint32_t>(c.records.size()));
    for (const EventRecord& r : c.records) {
      for (const std::uint32_t w : {r.slot0, r.key4_bits, r.key5_bits, r.counter, r.increment, r.word3, r.refreshes})
        out.u32(w);
      out.f32(r.scalar1);
      out.f32(r.scalar6);
      out.str(r.base);
      out.i64(r.start_event ? static_cast<std::int64_t>(*r.start_event) : -1);
      out.i64(r.continue_event ? static_cast<std::int64_t>(*r.continue_event) : -1);
    }
    out.u32(static_cast<std::uint32_t>(c.problems.size()));
    for (const ProblemRecord& p : c.problems) {
      out.u32(p.index);
      for (const std::uint32_t w : p.words) out.u32(w);
    }
    out.u64(c.instructions_run);
    out.u64(c.traced);
  }
  out.boolean(host_state_.has_value());
  out.u32(host_state_ ? host_state_->first : 0);
  out.u32(host_state_ ? host_state_->second : 0);
  out.u32(static_cast<std::uint32_t>(raised_.size()));
  for (const auto& [clan_index, name] : raised_) {
    out.u32(static_cast<std::uint32_t>(clan_index));
    out.str(name);
  }
  out.u32(static_cast<std::uint32_t>(findings_.size()));
}

}  // namespace sortie::scenario
