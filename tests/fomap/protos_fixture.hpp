#pragma once
// A project whose prototypes come from one proto text (tests build their fixtures in code).
#include <string>
#include <string_view>

#include "sortie/fomap/project.hpp"

namespace sortie::fomap::test {

inline Project project_with_protos(std::string_view protos, std::string_view file = "protos.fopro") {
  Project p;
  p.protos.add_text(std::string(protos), file);
  p.protos.resolve(p.properties);
  p.has_protos = true;
  return p;
}

}  // namespace sortie::fomap::test
