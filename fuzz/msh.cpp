// Fuzzes the MSH reader (NRes container + stream validation); accepted models write back exactly.
#include "sortie/iron3d/msh.hpp"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  iron3d::ReadOptions o;
  o.profile = core::Profile::compatible;
  core::Diagnostics w;
  auto f = iron3d::read_msh(in, o, &w);
  if (!f) return 0;
  auto out = iron3d::write_msh(*f);
  if (!out || *out != core::Bytes(in.begin(), in.end())) __builtin_trap();
  (void)iron3d::msh_material_rows(f->model);
  (void)iron3d::msh_slot_for(f->model, 0, 0, 0);
  (void)iron3d::msh_json(f->model);
  return 0;
}
