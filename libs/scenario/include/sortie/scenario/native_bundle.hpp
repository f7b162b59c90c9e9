#pragma once
// The native script bundles as a scenario part (issue #18 part 1; spec §20.4, §20.5; seed 001's
// "safe runtime model"): what the seed knows of ai.dll's script VM, and nothing it does not.
//
//   start (MISSION_START)  one ClanScript per loaded bundle (assets::ScriptBundle, clan order): a
//                          value array instantiated from the bundle's varset (declared type, the
//                          default's exact bits, the range when declared), its named events bound
//                          to their records (Init, Mission, <base>_Start, <base>_Continue, ...: the
//                          first event of a name wins), then the `Init` event of every clan runs.
//   step (every tick)      the events raised since the last step (raise(): object events, tests)
//                          run in the order they were raised. The seed gives no timer or condition
//                          rule beyond Handler(2)'s record refresh, so nothing else advances.
//
// Instructions run in record order. The dispatch selector is typed (iron3d::ScrSelector:
// handler 0..72, the sentinel 0xFFFFFFFF, anything else unknown and kept). The handlers with a
// recovered contract run: 2 (the event-record collection), 8 (problem state), 19 (the Init
// anchors: three DWORD writes), 30 and 57 (the host callback; (0, 0, 0) mission failed and
// (0, 0, 1) mission complete become the scenario outcome through the OutcomeFn). Handler 15's
// arity is decoded and traced. Every other handler, the sentinel, an unknown selector and the
// five evaluator tags are typed and traced to the "ai" channel (ai.log), never guessed. A handler
// whose operands break its contract (a missing or out-of-range reference, a float where a DWORD
// is read) is traced and skipped, except in Init: an anchor outside 0..10,000 (or not finite)
// stops the part, as CreateSuperAI refuses the clan. docs/script-bundles.md has the details.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sortie/assets/script_bundle.hpp"
#include "sortie/scenario/limits.hpp"  // kMaxProblemRecords, kMaxRaisedEvents
#include "sortie/scenario/objectives.hpp"
#include "sortie/scenario/part.hpp"

namespace sortie::scenario {

inline constexpr float kAnchorMax = 10'000.0f;  // CreateSuperAI refuses anchors beyond it

// How the host's "mission failed / complete" reaches the world: a small function, so the part
// does not know the command kinds (the scenario runtime passes one that submits
// scenario.outcome; tests pass a recorder). An empty function only traces.
using OutcomeFn = std::function<core::Status(ScenarioContext& ctx, Outcome outcome, std::string reason)>;

// One value of a clan's array: the declaration's type and range, the current bits.
struct NativeValue {
  iron3d::VarType type = iron3d::VarType::dword;
  std::uint32_t bits = 0;  // u32 for DWORD, IEEE-754 bits for float
  std::optional<std::uint32_t> min, max;
};

// Handler(2)'s record (spec §20.5), keyed by (slot0, bits(slot4), bits(slot5)).
struct EventRecord {
  std::uint32_t slot0 = 0;
  std::uint32_t key4_bits = 0;
  std::uint32_t key5_bits = 0;
  float scalar1 = 0;            // +0x14
  std::uint32_t counter = 0;    // +0x24, slot2 at creation
  std::uint32_t increment = 0;  // +0x28, slot2 at creation; added to the counter on a refresh
  std::uint32_t word3 = 0;      // +0x2C
  float scalar6 = 0;            // +0x0C
  std::string base;             // slot0's declaration name: <base>_Start / <base>_Continue
  std::optional<std::uint32_t> start_event, continue_event;  // bound event indices, when present
  std::uint32_t refreshes = 0;
};

// Handler(8)'s 100-byte problem record (25 words); the state is written at +0x18 (word 6).
struct ProblemRecord {
  std::uint32_t index = 0;
  std::array<std::uint32_t, 25> words{};
};

struct ClanScript {
  std::size_t clan_index = 0;
  std::string clan_name;
  std::size_t bundle = 0;  // index into MissionData::scripts
  std::vector<NativeValue> values;
  std::map<std::string, std::uint32_t> events;  // name -> first event index of that name
  std::vector<EventRecord> records;
  std::vector<ProblemRecord> problems;
  std::uint64_t instructions_run = 0;
  std::uint64_t traced = 0;  // instructions traced without an effect
};

// Handler(2)'s seven resolved slots.
struct Handler2Input {
  std::uint32_t slot0 = 0;
  float slot1 = 0;
  std::uint32_t slot2 = 0, slot3 = 0;
  float slot4 = 0, slot5 = 0, slot6 = 0;
  std::string base;
};
struct Handler2Result {
  std::size_t index = 0;
  bool created = false;
  bool refreshed = false;
};
// The collection's rule: a new key appends; an existing key refreshes only when slot1 compares
// unequal (NaN always unequal, +0 == -0): scalar1 and scalar6 replaced, the stored increment
// added to the counter (wrapping).
Handler2Result submit_event_record(std::vector<EventRecord>& records, const Handler2Input& in);

// Handler(15)'s arity by mode (spec §20.5): 9 references for mode 0, 10 for 0x0201/0x0203/
// 0x0204/0x0205, 11 for 0x0202 (TARGET_BY_PLACE); nullopt for another mode.
std::optional<std::size_t> handler15_arity(std::uint32_t mode);

// The expression evaluator's records (seed 001: ai.dll 0x10005180, not part of .scr): a u32 tag
// at +0, a subtype at +4, a payload at +8. Tags 1..3 need subtype 0, tags 4..5 subtype 1; branch
// 2 accepts result tags 1, 0x12, 0x13. Typed and traced only.
struct EvaluatorRecord {
  std::uint32_t tag = 0;
  std::uint32_t subtype = 0;
  std::uint32_t payload = 0;
};
enum class EvaluatorBranch : std::uint8_t {
  none = 0,
  lookup = 1,
  lookup_state = 2,
  lookup_value = 3,
  children_a = 4,
  children_b = 5
};
struct EvaluatorView {
  EvaluatorBranch branch = EvaluatorBranch::none;  // none: a tag outside 1..5
  bool subtype_ok = false;
  std::string text;  // the trace line
};
EvaluatorView classify_evaluator(const EvaluatorRecord& record);
bool is_evaluator_result_tag(std::uint32_t tag);
void trace_evaluator(ScenarioContext& ctx, const EvaluatorRecord& record);

class NativeBundlePart final : public ScenarioPart {
 public:
  explicit NativeBundlePart(OutcomeFn outcome = {});
  [[nodiscard]] std::string name() const override { return "native"; }
  core::Status start(ScenarioContext& ctx) override;
  core::Status step(ScenarioContext& ctx) override;
  void encode(world::StateWriter& out) const override;
  // {"started", "clans": [{"clan", "values": [bits, ...], "records": [[slot0, key4_bits, key5_bits,
  // counter, increment, word3, refreshes, scalar1, scalar6, base, start_event, continue_event],
  // ...], "problems": [[index, 25 words...], ...], "instructions", "traced"}, ...], "host_state":
  // null | [first, second], "raised": [[clan_index, event], ...], "findings": count}
  void image(nlohmann::json& out) const override;

  // Queues the named event of the clan at `clan_index` (data.tma order) for the next step.
  core::Status raise(std::size_t clan_index, std::string event);

  [[nodiscard]] const std::vector<ClanScript>& clans() const { return clans_; }
  [[nodiscard]] const ClanScript* clan(std::size_t clan_index) const;
  // The host callback's last target state (first, second); nullopt before the first call.
  [[nodiscard]] std::optional<std::pair<std::uint32_t, std::uint32_t>> host_state() const { return host_state_; }
  // Contract violations met while running (traced too), in order.
  [[nodiscard]] const core::Diagnostics& findings() const { return findings_; }

 private:
  struct Run;
  core::Status dispatch(ScenarioContext& ctx, ClanScript& clan, std::uint32_t event_index, bool is_init);
  core::Status run_instruction(Run& run, const iron3d::ScrInstruction& ins);
  core::Status handler2(Run& run, const iron3d::ScrInstruction& ins);
  core::Status handler8(Run& run, const iron3d::ScrInstruction& ins);
  core::Status handler15(Run& run, const iron3d::ScrInstruction& ins);
  core::Status handler19(Run& run, const iron3d::ScrInstruction& ins);
  core::Status host_callback(Run& run, const iron3d::ScrInstruction& ins, std::uint32_t mode);

  OutcomeFn outcome_;
  std::shared_ptr<const assets::MissionData> data_;
  std::vector<ClanScript> clans_;
  std::vector<std::pair<std::size_t, std::string>> raised_;
  std::optional<std::pair<std::uint32_t, std::uint32_t>> host_state_;
  core::Diagnostics findings_;
  bool started_ = false;
};

}  // namespace sortie::scenario
