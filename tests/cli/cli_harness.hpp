#pragma once
// Test harness for the end-to-end CLI tests: runs the built `sortie` binary (SORTIE_BIN) with
// posix_spawn, capturing stdout, stderr and the exit code. Each test gets its own temporary
// directory; the demo sample game is generated once per test process and shared read-only.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/json.hpp"

namespace sortie::cli_test {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;  // the process's exit status; 128+N when killed by signal N
  std::string out;
  std::string err;
  [[nodiscard]] std::string all() const { return out + err; }
  // stdout parsed as JSON (discarded value when it is not JSON).
  [[nodiscard]] core::Json json() const;
};

// Runs SORTIE_BIN with `args` (stdin is /dev/null).
RunResult run_sortie(const std::vector<std::string>& args);
// Runs any program (looked up on PATH when `program` has no slash) the same way.
RunResult run_program(const std::string& program, const std::vector<std::string>& args);

// sortie-viewer ARGS... under a virtual X server (`xvfb-run -a`). Leak detection is off for the
// viewer process: SDL's X11 and D-Bus back ends leave allocations in system libraries that
// LeakSanitizer cannot even symbolise; our own code's leaks are checked by the in-process
// viewer, render and game tests. xvfb-run's exit 5 from a clean-up race is retried.
RunResult run_viewer(const std::vector<std::string>& args);

// The demo sample (`sortie sample DIR`, seed 1), generated on first use; do not modify it.
const fs::path& sample_dir();

// Reads a whole file (test helper; fails the test on error).
core::Bytes file_bytes(const fs::path& path);
void put_bytes(const fs::path& path, core::ByteView bytes);
void write_text(const fs::path& path, const std::string& text);

// Map relative path -> bytes of every regular file below `dir`.
std::vector<std::pair<std::string, core::Bytes>> tree_bytes(const fs::path& dir);

// A PNG file decoded to 8-bit RGB rows (libpng's simplified API); `rgb` is empty when the file
// cannot be read as a PNG.
struct RgbImage {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::vector<std::uint8_t> rgb;
};
RgbImage read_png_rgb(const fs::path& path);

// True when xvfb-run is on PATH (the viewer tests skip with a message without it).
bool have_xvfb();

// The FOnline map corpus (../shared/corpus/fomap next to the repository or the worktree); empty when absent.
fs::path fomap_corpus();

// Fixture: a fresh temporary directory per test, removed afterwards.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // A copy of the sample game inside the temporary directory (for tests that modify files).
  fs::path copy_sample(const std::string& name = "game");
  fs::path dir_;
};

}  // namespace sortie::cli_test
