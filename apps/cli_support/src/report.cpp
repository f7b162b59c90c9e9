#include "sortie/cli/report.hpp"

#include <iostream>

namespace sortie::cli {
namespace {
std::string& program() {
  static std::string name = "sortie";
  return name;
}
}  // namespace

void set_program_name(std::string_view name) {
  program() = std::string(name);
}

const std::string& program_name() {
  return program();
}

void print_error(const core::Diagnostic& d) {
  std::cerr << program() << ": " << d.to_string() << "\n";
}

void print_json(const core::Json& j) {
  std::cout << core::dump_json(j) << std::flush;
}

int fail_with(const core::Diagnostic& d, bool json) {
  return fail_with(d, json, exit_code_for(d));
}

int fail_with(const core::Diagnostic& d, bool json, int code) {
  if (json) print_json(core::Json{{"ok", false}, {"error", d.to_json()}});
  print_error(d);
  return code;
}

}  // namespace sortie::cli
