#include "cli_harness.hpp"

#include <fcntl.h>
#include <png.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include "sortie/core/file_io.hpp"
#include "sortie_test/corpus.hpp"

extern char** environ;

namespace sortie::cli_test {

namespace {

std::string slurp(const fs::path& p) {
  auto text = core::read_file(p);
  return text ? std::string(text->begin(), text->end()) : std::string();
}

fs::path make_temp_dir(const std::string& prefix) {
  std::string templ = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  char* made = ::mkdtemp(templ.data());
  if (made == nullptr) throw std::runtime_error("mkdtemp failed");
  return fs::path(made);
}

struct SharedSample {
  fs::path root;
  fs::path game;
  SharedSample() {
    root = make_temp_dir("sortie_cli_sample_");
    game = root / "game";
    const RunResult r = run_sortie({"sample", game.string()});
    if (r.exit_code != 0) throw std::runtime_error("sortie sample failed: " + r.all());
  }
  ~SharedSample() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  SharedSample(const SharedSample&) = delete;
  SharedSample& operator=(const SharedSample&) = delete;
};

}  // namespace

core::Json RunResult::json() const {
  return core::Json::parse(out, nullptr, false);
}

RunResult run_sortie(const std::vector<std::string>& args) {
  return run_program(SORTIE_BIN, args);
}

RunResult run_program(const std::string& program, const std::vector<std::string>& args) {
  const fs::path tmp = make_temp_dir("sortie_cli_run_");
  const std::string out_path = (tmp / "stdout").string();
  const std::string err_path = (tmp / "stderr").string();
  std::vector<std::string> argv_store;
  argv_store.emplace_back(program);
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  argv.reserve(argv_store.size() + 1);
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  RunResult r;
  const int rc = ::posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    r.err = "posix_spawn failed";
  } else {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
    }
    if (WIFEXITED(status))
      r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
      r.exit_code = 128 + WTERMSIG(status);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
  }
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return r;
}

const fs::path& sample_dir() {
  static const SharedSample sample;
  return sample.game;
}

core::Bytes file_bytes(const fs::path& path) {
  auto b = core::read_file(path);
  EXPECT_TRUE(b.has_value()) << path;
  return b ? *b : core::Bytes{};
}

void write_text(const fs::path& path, const std::string& text) {
  put_bytes(path, core::as_bytes(text));
}

void put_bytes(const fs::path& path, core::ByteView bytes) {
  auto st = core::write_file_atomic(path, bytes);
  ASSERT_TRUE(st.has_value()) << path;
}

std::vector<std::pair<std::string, core::Bytes>> tree_bytes(const fs::path& dir) {
  std::vector<std::pair<std::string, core::Bytes>> files;
  for (const auto& de : fs::recursive_directory_iterator(dir))
    if (de.is_regular_file()) files.emplace_back(fs::relative(de.path(), dir).generic_string(), file_bytes(de.path()));
  std::sort(files.begin(), files.end());
  return files;
}

RgbImage read_png_rgb(const fs::path& path) {
  const core::Bytes bytes = file_bytes(path);
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  RgbImage out;
  if (png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()) == 0) return out;
  image.format = PNG_FORMAT_RGB;
  out.width = image.width;
  out.height = image.height;
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr) == 0) out.rgb.clear();
  return out;
}

bool have_xvfb() {
  return std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
}

fs::path fomap_corpus() {
  return test::fomap_corpus();
}

void CliTest::SetUp() {
  dir_ = make_temp_dir("sortie_cli_test_");
}

void CliTest::TearDown() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

fs::path CliTest::copy_sample(const std::string& name) {
  fs::path dst = dir_ / name;
  fs::copy(sample_dir(), dst, fs::copy_options::recursive);
  return dst;
}

#ifdef SORTIE_VIEWER_BIN
RunResult run_viewer(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"-a", "env", "LSAN_OPTIONS=detect_leaks=0", SORTIE_VIEWER_BIN};
  all.insert(all.end(), args.begin(), args.end());
  // xvfb-run answers 5 instead of the program's status when removing its temporary directory
  // races the X server's exit ("problem while cleaning up temporary directory"): run again.
  for (int attempt = 0;; ++attempt) {
    RunResult r = run_program("xvfb-run", all);
    if (r.exit_code != 5 || r.err.find("problem while cleaning up") == std::string::npos || attempt == 2) return r;
  }
}
#endif

}  // namespace sortie::cli_test
