#include "sortie/core/exit_code.hpp"

namespace sortie::core {

int exit_code_for(std::string_view code) {
  const auto starts = [code](std::string_view prefix) { return code.substr(0, prefix.size()) == prefix; };
  if (starts("io.") || starts("usage.") || starts("net.enet.")) return kExitUsage;
  if (code == "load.mission_missing" || code == "join.timeout") return kExitUsage;
  return kExitInvalid;
}

int exit_code_for(const Diagnostic& d) {
  return exit_code_for(std::string_view(d.code));
}

}  // namespace sortie::core
