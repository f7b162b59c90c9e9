#pragma once
// Small helpers for NRes tests: hex literals with spaces, byte copies, hostile archives.
#include <string>
#include <string_view>

#include "sortie/core/bytes.hpp"

namespace sortie::iron3d::nres_test {

inline core::Bytes hex(std::string_view spaced) {
  std::string compact;
  for (char c : spaced)
    if (c != ' ') compact.push_back(c);
  return core::from_hex(compact).value();
}

inline core::Bytes bytes_of(core::ByteView v) { return core::Bytes(v.begin(), v.end()); }

}  // namespace sortie::iron3d::nres_test
