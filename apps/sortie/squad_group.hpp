#pragma once
// The `sortie squad ...` group: run, accept and check (cmd_squad.cpp), render
// (cmd_squad_render.cpp).
#include <CLI/CLI.hpp>

namespace sortie::cli {

// Creates the `squad` group on `root` the first time, returns the same group afterwards.
CLI::App& squad_group(CLI::App& root);

}  // namespace sortie::cli
