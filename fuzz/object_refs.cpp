// Fuzzes ObjectRef payloads and the objects.rlb registry; accepted input must write back exactly.
#include "sortie/iron3d/object_refs.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  const core::Bytes copy(in.begin(), in.end());
  if (auto refs = iron3d::read_object_refs(in)) {
    if (iron3d::write_object_refs(*refs) != copy) __builtin_trap();
    (void)iron3d::object_ref_views(*refs);
  }
  iron3d::ReadOptions o;
  o.profile = core::Profile::compatible;
  if (auto reg = iron3d::read_object_registry(in, o)) {
    auto out = iron3d::write_object_registry(*reg);
    if (!out || *out != copy) __builtin_trap();
    (void)iron3d::find_prototype_refs(*reg, "key");
  }
  return 0;
}
