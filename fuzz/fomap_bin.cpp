// Fuzzes the baked map readers (server/client blob framing, property blob) with a
// write(read(x)) == x check for the framing.
#include <cstddef>
#include <cstdint>

#include "sortie/fomap/map_blob.hpp"
#include "sortie/fomap/property_blob.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView bytes(data, size);
  if (auto s = fomap::read_server_blob(bytes)) {
    if (fomap::write_server_blob(*s) != core::Bytes(bytes.begin(), bytes.end())) __builtin_trap();
    for (const auto& r : s->items) (void)fomap::read_property_blob(r.props, 64, 2);
  }
  if (auto c = fomap::read_client_blob(bytes)) {
    if (fomap::write_client_blob(*c) != core::Bytes(bytes.begin(), bytes.end())) __builtin_trap();
  }
  if (size >= 4) {
    const std::uint32_t pod = std::min<std::uint32_t>(core::load_u32(data), 4096);
    (void)fomap::read_property_blob(bytes, pod, static_cast<std::uint32_t>(size % 5));
  }
  return 0;
}
