// `sortie serve` plays the mission's scenario (issue #18 part 2): a server and two `sortie join`
// processes over ENet on loopback end on the same hash when the sample's script decides the
// outcome (well before the tick limit), every one of them prints the result, and `sortie replay`
// of the server's log reproduces the hash. Bounded: each process gets at most a minute.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "sortie_test/process.hpp"

namespace net_scenario_cli {

namespace fs = std::filesystem;

inline std::string match_of(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(pattern))) return m[1];
  return "";
}

class NetScenarioCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-net-scenario-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

}  // namespace net_scenario_cli

using net_scenario_cli::match_of;
using net_scenario_cli::NetScenarioCliTest;

TEST_F(NetScenarioCliTest, serve_plays_the_scenario_and_two_joins_end_on_its_hash_and_outcome) {
  using sortie::test::text_of;
  using sortie::test::wait_for;
  // --ticks 2000 is far beyond the sample's time limit (9 s of game time, 563 ticks).
  const auto server = sortie::test::spawn_logged({SORTIE_BIN, "serve", "--port", "0", "--ticks", "2000", "--fast",
                                                  "--wait-players", "2", "--log", (dir_ / "session.snlg").string()},
                                                 dir_ / "server.out");
  ASSERT_GT(server.pid, 0);
  std::string address;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (address.empty() && std::chrono::steady_clock::now() < until) {
    address = match_of(text_of(dir_ / "server.out"), "listening on (127\\.0\\.0\\.1:[0-9]+)");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_FALSE(address.empty()) << text_of(dir_ / "server.out");
  std::vector<sortie::test::Process> clients;
  for (const char* name : {"alice", "bob"})  // no --ticks: until the server ends the session
    clients.push_back(
        sortie::test::spawn_logged({SORTIE_BIN, "join", address, "--name", name}, dir_ / (std::string(name) + ".out")));
  ASSERT_EQ(wait_for(server, std::chrono::seconds(60)), 0) << text_of(dir_ / "server.out");
  const std::string served = text_of(dir_ / "server.out");
  const std::string hash = match_of(served, "final state hash: ([0-9a-f]{16})");
  const std::string result = match_of(served, "(scenario result: (win|lose) at tick [0-9]+ \\([^)]*\\))");
  ASSERT_EQ(hash.size(), 16u) << served;
  ASSERT_FALSE(result.empty()) << served;
  const std::string ticks = match_of(served, "ran ([0-9]+) ticks");
  ASSERT_FALSE(ticks.empty()) << served;
  EXPECT_LT(std::stoull(ticks), 2000u) << "the outcome ends the game";
  EXPECT_NE(served.find("scenario objectives:\n  ["), std::string::npos) << served;
  for (const char* name : {"alice", "bob"}) {
    const auto& c = clients[name[0] == 'a' ? 0 : 1];
    EXPECT_EQ(wait_for(c, std::chrono::seconds(60)), 0) << text_of(dir_ / (std::string(name) + ".out"));
    const std::string joined = text_of(dir_ / (std::string(name) + ".out"));
    EXPECT_EQ(match_of(joined, "final state hash: ([0-9a-f]{16})"), hash) << joined;
    EXPECT_NE(joined.find(result), std::string::npos) << joined;
  }
  const auto replay =
      sortie::test::spawn_logged({SORTIE_BIN, "replay", (dir_ / "session.snlg").string()}, dir_ / "replay.out");
  ASSERT_EQ(wait_for(replay, std::chrono::seconds(60)), 0) << text_of(dir_ / "replay.out");
  EXPECT_EQ(match_of(text_of(dir_ / "replay.out"), "final state hash: ([0-9a-f]{16})"), hash);
}
