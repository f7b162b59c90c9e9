// The command line end to end: `sortie serve` and three `sortie join` processes on loopback
// (with and without a lossy link) print the same final state hash, and `sortie replay` of the
// server's log prints it again.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "sortie_test/process.hpp"

namespace {

namespace fs = std::filesystem;
using sortie::test::Process;
using sortie::test::text_of;
using sortie::test::wait_for;

Process spawn(const std::vector<std::string>& args, const fs::path& out) {
  return sortie::test::spawn_logged(args, out);
}

std::string final_hash(const std::string& out) {
  std::smatch m;
  if (std::regex_search(out, m, std::regex("final state hash: ([0-9a-f]{16})"))) return m[1];
  return "";
}

class NetCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sortie-net-cli-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a server and three clients; returns the four final hashes (server first).
  std::vector<std::string> session(const std::vector<std::string>& join_extra) {
    const Process server =
        // The session starts when the three players are in: on a loaded machine a client that
        // started late would otherwise find the 200 ticks played.
        spawn(
            {SORTIE_BIN, "serve", "--port", "0", "--ticks", "200", "--wait-players", "3", "--log",
             (dir_ / "session.snlg").string(), "--trace-dir", (dir_ / "traces").string(), "--trace", "input,lifecycle"},
            dir_ / "server.out");
    EXPECT_GT(server.pid, 0);
    std::string address;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (address.empty() && std::chrono::steady_clock::now() < until) {
      std::smatch m;
      const std::string out = text_of(server.out);
      if (std::regex_search(out, m, std::regex("listening on (127\\.0\\.0\\.1:[0-9]+)"))) address = m[1];
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_FALSE(address.empty()) << text_of(server.out);
    std::vector<Process> clients;
    for (const char* name : {"alice", "bob", "carol"}) {
      std::vector<std::string> args{SORTIE_BIN, "join", address, "--name", name, "--ticks", "200"};
      args.insert(args.end(), join_extra.begin(), join_extra.end());
      clients.push_back(spawn(args, dir_ / (std::string(name) + ".out")));
    }
    std::vector<std::string> hashes;
    EXPECT_EQ(wait_for(server, std::chrono::seconds(60)), 0) << text_of(server.out);
    hashes.push_back(final_hash(text_of(server.out)));
    for (const Process& c : clients) {
      EXPECT_EQ(wait_for(c, std::chrono::seconds(30)), 0) << text_of(c.out);
      hashes.push_back(final_hash(text_of(c.out)));
    }
    return hashes;
  }

  fs::path dir_;
};

}  // namespace

TEST_F(NetCliTest, serve_and_three_joins_end_on_the_same_hash_and_replay_reproduces_it) {
  const auto hashes = session({});
  ASSERT_EQ(hashes.size(), 4u);
  ASSERT_EQ(hashes[0].size(), 16u);
  for (const auto& h : hashes) EXPECT_EQ(h, hashes[0]);
  const Process replay = spawn({SORTIE_BIN, "replay", (dir_ / "session.snlg").string()}, dir_ / "replay.out");
  ASSERT_EQ(wait_for(replay, std::chrono::seconds(30)), 0) << text_of(replay.out);
  EXPECT_EQ(final_hash(text_of(replay.out)), hashes[0]);
  EXPECT_TRUE(fs::exists(dir_ / "traces" / "resnet.log"));
  EXPECT_NE(text_of(dir_ / "traces" / "NetWatch.log").find("player_bind"), std::string::npos);
  // The players' bots' orders the server accepted (input.log), and the server's start and end
  // through the bootstrap (lifecycle.log), each line stamped with the tick.
  const std::string input = text_of(dir_ / "traces" / "input.log");
  EXPECT_TRUE(std::regex_search(
      input,
      std::regex("tick [0-9]+: network order of player [2-4]: move\\.goto p[0-9]+:c[0-9]+:#[0-9]+ for tick [0-9]+\n")))
      << input;
  const std::string lifecycle = text_of(dir_ / "traces" / "lifecycle.log");
  for (const char* line :
       {"tick 0: start transport\n", "tick 0: stage MAIN_LOOP\n", "stop archives\n", ": stage SHELL_DELETED\n"})
    EXPECT_NE(lifecycle.find(line), std::string::npos) << line << "\n" << lifecycle;
  // The server and each client report their traffic; the server its tick times.
  const std::string server = text_of(dir_ / "server.out");
  EXPECT_TRUE(std::regex_search(server, std::regex("traffic: in [1-9][0-9]* messages, [1-9][0-9]* bytes; out ")))
      << server;
  EXPECT_TRUE(std::regex_search(server, std::regex("tick time: mean [0-9]+ us, p99 [0-9]+ us"))) << server;
  EXPECT_TRUE(std::regex_search(text_of(dir_ / "alice.out"), std::regex("traffic: in [1-9][0-9]* messages")));
}

TEST_F(NetCliTest, serve_on_a_port_in_use_stops_what_started_in_reverse) {
  const Process first =
      spawn({SORTIE_BIN, "serve", "--port", "0", "--ticks", "100000", "--no-bot", "--no-scenario"}, dir_ / "a.out");
  std::string port;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (port.empty() && std::chrono::steady_clock::now() < until) {
    std::smatch m;
    const std::string out = text_of(first.out);
    if (std::regex_search(out, m, std::regex("listening on 127\\.0\\.0\\.1:([0-9]+)"))) port = m[1];
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_FALSE(port.empty()) << text_of(first.out);
  const Process second = spawn({SORTIE_BIN, "serve", "--port", port, "--ticks", "10", "--trace", "lifecycle",
                                "--trace-dir", (dir_ / "traces").string()},
                               dir_ / "b.out");
  EXPECT_EQ(wait_for(second, std::chrono::seconds(60)), 2) << text_of(second.out);  // as before: a usage/I/O error
  ::kill(first.pid, SIGTERM);
  wait_for(first, std::chrono::seconds(20));
  const std::string lifecycle = text_of(dir_ / "traces" / "lifecycle.log");
  const std::string expected =
      "tick 0: start archives\ntick 0: stage LIBRARY_READY\ntick 0: stage ENTRYPOINTS_READY\n"
      "tick 0: stage SHELL_CREATED\ntick 0: start mission\ntick 0: stage GAME_CREATED\n"
      "tick 0: start transport\ntick 0: fail transport\ntick 0: stage SUBSYSTEMS_CLOSED\n"
      "tick 0: stop mission\ntick 0: stage GAME_DELETED\ntick 0: stop archives\ntick 0: stage SHELL_DELETED\n";
  EXPECT_EQ(lifecycle, expected);
}

TEST_F(NetCliTest, serve_and_three_lossy_joins_end_on_the_same_hash) {
  const auto hashes = session({"--lossy", "drop=0.1,dup=0.05,reorder=0.1,delay=10ms,jitter=5ms", "--seed", "4"});
  ASSERT_EQ(hashes.size(), 4u);
  ASSERT_EQ(hashes[0].size(), 16u);
  for (const auto& h : hashes) EXPECT_EQ(h, hashes[0]);
}

TEST_F(NetCliTest, join_without_a_server_is_an_io_error_and_still_writes_its_trace) {
  const Process p = spawn({SORTIE_BIN, "join", "127.0.0.1:9", "--name", "x", "--timeout-ms", "300", "--trace-dir",
                           (dir_ / "traces").string(), "--log", (dir_ / "x.snlg").string()},
                          dir_ / "j.out");
  EXPECT_EQ(wait_for(p, std::chrono::seconds(20)), 2) << text_of(p.out);
  EXPECT_NE(text_of(dir_ / "traces" / "resnet.log").find("join_failed code=join.timeout"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "traces" / "NetWatch.log"));
  EXPECT_FALSE(fs::exists(dir_ / "x.snlg"));  // nothing was received to record
  const Process bad = spawn({SORTIE_BIN, "join", "nowhere", "--name", "x"}, dir_ / "b.out");
  EXPECT_EQ(wait_for(bad, std::chrono::seconds(20)), 2);
  EXPECT_NE(text_of(dir_ / "b.out").find("net.address"), std::string::npos);
}

TEST_F(NetCliTest, replay_refuses_what_is_not_a_log) {
  {
    std::ofstream f(dir_ / "junk.snlg");
    f << "SNLG but not really";
  }
  const Process junk = spawn({SORTIE_BIN, "replay", (dir_ / "junk.snlg").string()}, dir_ / "r.out");
  EXPECT_EQ(wait_for(junk, std::chrono::seconds(20)), 1);
  EXPECT_NE(text_of(dir_ / "r.out").find("net_log.version"), std::string::npos) << text_of(dir_ / "r.out");
  const Process missing = spawn({SORTIE_BIN, "replay", (dir_ / "missing.snlg").string()}, dir_ / "m.out");
  EXPECT_EQ(wait_for(missing, std::chrono::seconds(20)), 2);
}
