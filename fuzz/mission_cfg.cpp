// Fuzzes the mission.cfg reader (target fuzz_mission_cfg): an accepted input is written back
// exactly in both profiles, the typed named fields agree with their lines, an edit renders a file
// that reads back with the edited value, and the JSON model always serialises.
#include "sortie/iron3d/mission_cfg.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  for (auto profile : {core::Profile::strict, core::Profile::compatible}) {
    iron3d::ReadOptions o;
    o.profile = profile;
    core::Diagnostics warnings;
    auto config = iron3d::read_mission_cfg(in, o, &warnings);
    if (!config) continue;
    if (iron3d::write_mission_cfg(*config) != core::Bytes(in.begin(), in.end())) __builtin_trap();
    for (const auto& obj : config->objects) {
      if (obj.name().empty()) __builtin_trap();
      if (profile == core::Profile::strict && !obj.close) __builtin_trap();
      // Strict: a present type/libtype is a well-formed integer.
      if (profile == core::Profile::strict && obj.find("type") != nullptr && !obj.type()) __builtin_trap();
      if (profile == core::Profile::strict && obj.find("libtype") != nullptr && !obj.libtype()) __builtin_trap();
    }
    (void)iron3d::mission_cfg_json(*config).dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
    // Edit the first terminated block: the file written must read back with the new value.
    for (auto& obj : config->objects) {
      if (!obj.close) continue;
      if (!obj.set("THEME", "fuzz.wav")) __builtin_trap();
      const core::Bytes edited = iron3d::write_mission_cfg(*config);
      auto again = iron3d::read_mission_cfg(edited, o);
      if (!again && again.error().code == "mission_cfg.limit") break;  // the edit made it too long
      if (!again) __builtin_trap();
      const auto* back = again->find(obj.name());
      if (back == nullptr || back->find("theme") == nullptr) __builtin_trap();
      break;
    }
  }
  return 0;
}
