#pragma once
// Subcommand registration for the `sortie` CLI. A command file does:
//
//   SORTIE_COMMAND(archive, [](CLI::App& root, sortie::cli::Outcome& outcome) {
//     auto* cmd = root.add_subcommand("archive", "...");
//     ...
//     cmd->callback([&outcome, opts] { outcome.exit_code = run(*opts); });
//   });
//
// Commands are added to the root app in name order, so --help is stable.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace sortie::cli {

struct Outcome {
  int exit_code = 0;
};

using Registrar = std::function<void(CLI::App& root, Outcome& outcome)>;

void register_command(std::string name, Registrar registrar);
void install_commands(CLI::App& root, Outcome& outcome);

// The subcommand group `name` of `root` (a group whose verbs live in several files): made with
// `description` and `footer` on first use, requiring one verb; the same group afterwards.
CLI::App& command_group(CLI::App& root, const std::string& name, const std::string& description,
                        const std::string& footer);

struct CommandRegistration {
  CommandRegistration(std::string name, Registrar registrar) {
    register_command(std::move(name), std::move(registrar));
  }
};

}  // namespace sortie::cli

#define SORTIE_COMMAND(name, ...) \
  static const ::sortie::cli::CommandRegistration SORTIE_CLI_CONCAT(sortie_command_, name)(#name, __VA_ARGS__)
#define SORTIE_CLI_CONCAT_INNER(a, b) a##b
#define SORTIE_CLI_CONCAT(a, b) SORTIE_CLI_CONCAT_INNER(a, b)
