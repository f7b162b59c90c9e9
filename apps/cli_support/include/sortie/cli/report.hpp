#pragma once
// How a sortie program reports a diagnostic and stops: "<program>: <diagnostic>" on stderr (the
// diagnostic's text ends with its " [code]"), with --json also {"ok": false, "error": ...} on
// stdout, and the exit code of core::exit_code_for. Both programs (sortie, sortie-viewer) use it.
#include <string>
#include <string_view>

#include "sortie/core/diagnostic.hpp"
#include "sortie/core/exit_code.hpp"
#include "sortie/core/json.hpp"

namespace sortie::cli {

using core::exit_code_for;
using core::kExitInvalid;
using core::kExitOk;
using core::kExitUsage;

// The name messages start with ("sortie" unless main sets another).
void set_program_name(std::string_view name);
[[nodiscard]] const std::string& program_name();

// Prints "<program>: <diagnostic>" to stderr.
void print_error(const core::Diagnostic& d);
// Prints JSON to stdout (pretty, sorted keys, trailing newline).
void print_json(const core::Json& j);
// print_error (and with `json` the error object on stdout); returns exit_code_for(d).
int fail_with(const core::Diagnostic& d, bool json = false);
// The same with an exit code the caller chose (an I/O failure the diagnostic cannot tell apart).
int fail_with(const core::Diagnostic& d, bool json, int code);

}  // namespace sortie::cli
