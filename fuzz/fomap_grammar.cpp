// Fuzzes the .fomap text path: ConfigFile grammar, map container model (anchors, addressing,
// ID repair), value parsing, lint and the canonical writer. Invariants: no crash, no hang;
// the canonical text of a map that formats is a fixed point of fmt.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sortie/fomap/canonical.hpp"
#include "sortie/fomap/lint.hpp"

namespace {

const sortie::fomap::Project& project() {
  static const sortie::fomap::Project p = [] {
    sortie::fomap::Project q;
    q.protos.add_text(
        "[ProtoCritter]\n$Name = Guard\n[ProtoItem]\n$Name = Crate\n[ProtoItem]\n$Name = Wall\nStatic = True\n",
        "fuzz.fopro");
    q.protos.resolve(q.properties);
    q.has_protos = true;
    return q;
  }();
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie::fomap;
  std::string text(reinterpret_cast<const char*>(data), size);
  const MapContainer c = MapContainer::from_text(text, "Maps/Fuzz.fomap");
  (void)lint_container(c, project(), {.strict = true});
  auto out = format_container(c, project());
  if (out) {
    const MapContainer again = MapContainer::from_text(*out, "Maps/Fuzz.fomap");
    auto twice = format_container(again, project());
    if (!twice || *twice != *out) __builtin_trap();
  }
  return 0;
}
