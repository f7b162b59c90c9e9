#pragma once
// Diagnostics shared by ArealMap::build and areal_input_from (one wording for one fault).
#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "sortie/core/diagnostic.hpp"

namespace sortie::nav::detail {

// nav.areal.link: areals[areal].links[link] names `found`, which is not an areal of `count`.
inline core::Diagnostic missing_areal_link(std::size_t areal, std::size_t link, std::size_t count, std::int64_t found) {
  return core::Diagnostic::error("nav.areal.link", "link names a missing areal")
      .in(fmt::format("areals[{}].links[{}]", areal, link))
      .expect(fmt::format("0..{}", count == 0 ? 0 : count - 1), std::to_string(found));
}

}  // namespace sortie::nav::detail
