// sortie: the multi-call command line. Each subcommand lives in its own cmd_*.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "command.hpp"

namespace sortie::cli {
namespace {
std::map<std::string, Registrar>& registry() {
  static std::map<std::string, Registrar> r;  // sorted by name: stable --help
  return r;
}
}  // namespace

CLI::App& command_group(CLI::App& root, const std::string& name, const std::string& description,
                        const std::string& footer) {
  const auto found = root.get_subcommands([&](const CLI::App* a) { return a->get_name() == name; });
  if (!found.empty()) return *found.front();
  CLI::App* group = root.add_subcommand(name, description);
  group->require_subcommand(1);
  group->footer(footer);
  return *group;
}

void register_command(std::string name, Registrar registrar) {
  registry().emplace(std::move(name), std::move(registrar));
}

void install_commands(CLI::App& root, Outcome& outcome) {
  for (auto& [name, registrar] : registry()) registrar(root, outcome);
}

}  // namespace sortie::cli

int main(int argc, char** argv) {
  CLI::App app{
      "sortie: engine and toolkit for legacy mission content (Parkan: Iron Strategy data, FOnline maps).\n"
      "\n"
      "Examples:\n"
      "  sortie inspect objects.rlb --json      describe any supported file (format found by content)\n"
      "  sortie check --strict *.lib             validate files; exit 1 on findings\n"
      "  sortie roundtrip data.tma               read and write back; exit 0 only when byte-identical\n"
      "  sortie archive list textures.lib        list an NRes or RsLi archive\n",
      "sortie"};
  app.set_version_flag("--version", std::string("sortie ") + SORTIE_VERSION);
  app.require_subcommand(1);
  app.fallthrough(false);
  sortie::cli::Outcome outcome;
  sortie::cli::install_commands(app, outcome);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // CLI11 reports a missing subcommand before unknown arguments: `sortie frobnicate` would
    // only say "A subcommand is required". Name what was not understood instead.
    CLI::App* deepest = &app;
    while (!deepest->get_subcommands().empty()) deepest = deepest->get_subcommands().front();
    if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && !deepest->remaining().empty()) {
      std::string unknown;
      for (const auto& r : deepest->remaining()) unknown += (unknown.empty() ? "" : " ") + r;
      std::cerr << fmt::format("{}: unknown command or option: {}\nRun with --help for the list of commands.\n",
                               deepest == &app ? std::string("sortie") : "sortie " + deepest->get_name(), unknown);
      return 2;
    }
    app.exit(e);
    return 2;  // usage error
  }
  return outcome.exit_code;
}
