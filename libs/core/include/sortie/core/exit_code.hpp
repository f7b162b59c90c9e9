#pragma once
// The exit code of a program that stops on a diagnostic (CONVENTIONS.md): 0 ok, 1 invalid input
// or findings, 2 usage or I/O error. One rule for every sortie program (the CLI and the viewer).
#include <string_view>

#include "sortie/core/diagnostic.hpp"

namespace sortie::core {

inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;
inline constexpr int kExitUsage = 2;

// 2 for I/O and usage ("io.*", "usage.*"), a mission named on the command line that does not
// exist (load.mission_missing), and a server that cannot be reached or does not answer
// ("net.enet.*", join.timeout); 1 for everything else (the input is there but invalid).
int exit_code_for(std::string_view code);
int exit_code_for(const Diagnostic& d);

}  // namespace sortie::core
