// `sortie replay LOG`: rebuilds a recorded network session (net/message_log.hpp) and prints its
// final state hash.
#include <iostream>
#include <memory>

#include "command.hpp"
#include "sortie/cli/report.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/net/session_report.hpp"

namespace sortie::cli {
namespace {

int replay_main(const std::string& path, bool json) {
  auto bytes = core::read_file(path);
  if (!bytes) return fail_with(bytes.error(), json, kExitUsage);
  auto log = net::read_message_log(*bytes);
  if (!log) return fail_with(std::move(log.error()).of(path), json, kExitInvalid);
  auto outcome = net::replay_message_log(*log);
  if (!outcome) return fail_with(std::move(outcome.error()).of(path), json, kExitInvalid);
  if (json) {
    print_json(net::replay_report_json(*outcome));
  } else {
    std::cout << net::replay_report_text(*outcome);
  }
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(replay, [](CLI::App& root, Outcome& outcome) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = root.add_subcommand("replay", "Rebuild a recorded network session and print its final state hash");
  cmd->footer(
      "Reads a message log written by `sortie serve --log` (or `sortie join --log`), builds the world\n"
      "from its setup and runs every tick sequence, checking the recorded state hash after each tick.\n"
      "Exit 1 when the log is invalid or a hash differs.\n\nExample:\n  sortie replay session.snlg\n");
  cmd->add_option("log", *path, "message log")->required();
  cmd->add_flag("--json", *json, "print the result as JSON");
  cmd->callback([path, json, &outcome] { outcome.exit_code = replay_main(*path, *json); });
});

}  // namespace sortie::cli
