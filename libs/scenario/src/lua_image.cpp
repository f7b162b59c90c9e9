// A Lua mission script's state as data for a save's world image (lua_mission.hpp). The script's
// globals come from the same encoding the state hash covers (encode_globals, lua_sandbox.cpp):
// per value a type byte (Lua type + 1; 0xFE a cycle or too deep, 0xFF over the value cap), then
// boolean u8 | number (u8 0 + i64, or u8 1 + f64) | string (lp) | table (count u32, key value
// pairs in the sorted-key order) | nothing (functions, threads, userdata).
//
// In the image: nil null, booleans and numbers as JSON, strings as text (core::bytes_text_json),
// a table whose keys are all strings an object, another an array of [key, value] pairs; a value
// that is not data {"$lua": "function" | "thread" | "userdata" | "cycle" | "cut"}.
#include <bit>

#include "lua_script.hpp"
#include "sortie/core/bytes.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/core/json.hpp"

namespace sortie::scenario {

namespace {

class GlobalsReader {
 public:
  explicit GlobalsReader(core::ByteView bytes) : bytes_(bytes) {}

  // The count-prefixed pairs of a table (or of the globals).
  core::Json table() {
    const std::uint32_t n = u32();
    std::vector<std::pair<core::Json, core::Json>> pairs;
    bool all_strings = true;
    for (std::uint32_t i = 0; i < n && ok_; ++i) {
      core::Json k = value();
      core::Json v = value();
      all_strings = all_strings && k.is_string();
      pairs.emplace_back(std::move(k), std::move(v));
    }
    core::Json out = all_strings ? core::Json::object() : core::Json::array();
    for (auto& [k, v] : pairs) {
      if (all_strings) {
        out[k.get<std::string>()] = std::move(v);
      } else {
        out.push_back(core::Json::array({std::move(k), std::move(v)}));
      }
    }
    return out;
  }

  core::Json value() {
    const std::uint8_t tag = u8();
    switch (tag) {
      case LUA_TNIL + 1:
        return nullptr;
      case LUA_TBOOLEAN + 1:
        return u8() != 0;
      case LUA_TNUMBER + 1:
        if (u8() == 0) return static_cast<std::int64_t>(u64());
        return core::f64_json(std::bit_cast<double>(u64()));
      case LUA_TSTRING + 1: {
        const std::uint32_t n = u32();
        if (n > bytes_.size() - at_) return fail();
        const std::string_view text(reinterpret_cast<const char*>(bytes_.data() + at_), n);
        at_ += n;
        return core::bytes_text_json(text);
      }
      case LUA_TTABLE + 1: {
        // 0xFE in place of the count marks a cycle; a count whose first byte is 0xFE (254 + 256k
        // pairs) reads as a table, so the table is tried first.
        const std::size_t start = at_;
        core::Json t = table();
        if (ok_ || start >= bytes_.size() || bytes_[start] != 0xFE) return t;
        ok_ = true;
        at_ = start + 1;
        return core::Json{{"$lua", "cycle"}};
      }
      case LUA_TFUNCTION + 1:
        return core::Json{{"$lua", "function"}};
      case LUA_TTHREAD + 1:
        return core::Json{{"$lua", "thread"}};
      case LUA_TUSERDATA + 1:
      case LUA_TLIGHTUSERDATA + 1:
        return core::Json{{"$lua", "userdata"}};
      case 0xFF:
        return core::Json{{"$lua", "cut"}};
      default:
        return fail();
    }
  }

  [[nodiscard]] bool ok() const { return ok_; }

 private:
  core::Json fail() {
    ok_ = false;
    at_ = bytes_.size();
    return nullptr;
  }
  std::uint8_t u8() {
    if (at_ + 1 > bytes_.size()) {
      ok_ = false;
      return 0;
    }
    return bytes_[at_++];
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{u8()} << (8 * i);
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= std::uint64_t{u8()} << (8 * i);
    return v;
  }

  core::ByteView bytes_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace

void LuaMission::image(nlohmann::json& out) const {
  const Script& s = *script_;
  core::Json rng = core::Json::array();
  for (const std::uint64_t w : s.rng.state()) rng.push_back(core::hash_hex(w));
  core::Json handlers = core::Json::array();
  for (const Handler& h : s.handlers) handlers.push_back(core::Json::array({static_cast<int>(h.kind), h.zone}));
  core::Json timers = core::Json::array();
  for (const Timer& t : s.timers) timers.push_back(core::Json::array({t.id, t.due, t.period}));
  core::Json zones = core::Json::array();
  for (const Zone& z : s.zones) {
    core::Json inside = core::Json::array();
    for (const world::ObjectId& id : z.inside) inside.push_back(core::hash_hex(id.raw()));
    zones.push_back(
        core::Json::array({core::bytes_text_json(z.name), static_cast<int>(z.shape), core::f64_json(z.a),
                           core::f64_json(z.b), core::f64_json(z.c), core::f64_json(z.d), z.areal, std::move(inside)}));
  }
  core::Json follows = core::Json::array();
  for (const Follow& f : s.follows)
    follows.push_back(core::Json::array(
        {core::hash_hex(f.follower.raw()), core::hash_hex(f.leader.raw()), core::f32_json(f.speed), f.next}));
  GlobalsReader reader(s.data.view());
  core::Json globals = s.data.size() == 0 ? core::Json::object() : reader.table();
  if (!reader.ok()) globals = core::Json{{"encoding", core::to_hex(s.data.view())}};
  out = core::Json{{"running", s.running},         {"stop", static_cast<int>(s.stop)}, {"rng", std::move(rng)},
                   {"orders", s.orders},           {"handlers", std::move(handlers)},  {"next_timer", s.next_timer},
                   {"timers", std::move(timers)},  {"zones", std::move(zones)},        {"follows", std::move(follows)},
                   {"globals", std::move(globals)}};
}

}  // namespace sortie::scenario
