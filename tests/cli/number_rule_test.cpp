// The one rule for numeric options of both programs (sortie/cli/options.hpp), in process: what a
// value may look like, the ends of a range, and the text CLI11 converts afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "sortie/cli/options.hpp"
#include "sortie/cli/report.hpp"

namespace sortie::cli_test {
namespace {

// Parses `args` into one option `--n` added by add_number; returns the CLI11 error text or "".
template <class T>
std::string parse(T& value, std::vector<std::string> args, T lo, T hi, cli::Ends ends = cli::Ends::closed) {
  CLI::App app;
  cli::add_number(&app, "--n", value, "a number", lo, hi, ends);
  args.insert(args.begin(), "--n");
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return {};
}

TEST(NumberRule, whole_numbers_are_decimal_or_hex_never_octal) {
  std::uint32_t v = 0;
  EXPECT_NE(parse(v, {"010"}, 0u, 100u), "");  // CLI11 would store octal 8: refused
  EXPECT_EQ(parse(v, {"0"}, 0u, 100u), "");
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(parse(v, {"10"}, 0u, 100u), "");
  EXPECT_EQ(v, 10u);
  EXPECT_EQ(parse(v, {"0x1F"}, 0u, 100u), "");
  EXPECT_EQ(v, 31u);
  EXPECT_EQ(parse(v, {"+7"}, 0u, 100u), "");
  EXPECT_EQ(v, 7u);
  EXPECT_NE(parse(v, {"0x1g"}, 0u, 100u), "");
  EXPECT_NE(parse(v, {"1.0"}, 0u, 100u), "");
  EXPECT_NE(parse(v, {"1e2"}, 0u, 100u), "");
  EXPECT_NE(parse(v, {"0x"}, 0u, 100u), "");
  EXPECT_NE(parse(v, {""}, 0u, 100u), "");
  EXPECT_EQ(parse(v, {"-0"}, 0u, 100u), "");
  EXPECT_EQ(v, 0u);
  const auto err = parse(v, {"-1"}, 0u, 100u);
  EXPECT_NE(err.find("--n: value '-1' is not a whole number in [0, 100]"), std::string::npos) << err;
  const auto hex = parse(v, {"0x65"}, 0u, 100u);  // 101: the message quotes what was typed
  EXPECT_NE(hex.find("value '0x65'"), std::string::npos) << hex;
  std::int64_t s = 0;
  EXPECT_EQ(parse(s, {"-0x10"}, std::int64_t{-100}, std::int64_t{100}), "");
  EXPECT_EQ(s, -16);
  std::uint64_t big = 0;
  EXPECT_EQ(parse(big, {"18446744073709551615"}, std::uint64_t{0}, UINT64_MAX), "");
  EXPECT_EQ(big, UINT64_MAX);
  EXPECT_NE(parse(big, {"18446744073709551616"}, std::uint64_t{0}, UINT64_MAX), "");
}

TEST(NumberRule, open_ends_exclude_their_bound) {
  double d = 0;
  EXPECT_NE(parse(d, {"0"}, 0.0, 180.0, cli::Ends::open_both), "");
  EXPECT_NE(parse(d, {"180"}, 0.0, 180.0, cli::Ends::open_both), "");
  EXPECT_EQ(parse(d, {"179.5"}, 0.0, 180.0, cli::Ends::open_both), "");
  EXPECT_EQ(d, 179.5);
  EXPECT_NE(parse(d, {"0"}, 0.0, 10.0, cli::Ends::open_low), "");
  EXPECT_EQ(parse(d, {"10"}, 0.0, 10.0, cli::Ends::open_low), "");
  const auto err = parse(d, {"0"}, 0.0, 10.0, cli::Ends::open_low);
  EXPECT_NE(err.find("in (0, 10]"), std::string::npos) << err;
  EXPECT_NE(parse(d, {"nan"}, 0.0, 10.0), "");
  EXPECT_NE(parse(d, {"inf"}, 0.0, 10.0), "");
  EXPECT_EQ(parse(d, {"1e1"}, 0.0, 10.0), "");
  EXPECT_EQ(d, 10.0);
}

TEST(FailWith, reports_with_the_program_name_and_the_one_exit_code_rule) {
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  cli::set_program_name("sortie-viewer");
  const int code = cli::fail_with(core::Diagnostic::error("io.not_found", "no such file").of("x.weather"), true);
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string out = testing::internal::GetCapturedStdout();
  cli::set_program_name("sortie");
  EXPECT_EQ(code, 2);
  EXPECT_EQ(err, "sortie-viewer: x.weather: no such file [io.not_found]\n");  // the code once
  EXPECT_NE(out.find("\"ok\": false"), std::string::npos) << out;
  EXPECT_NE(out.find("\"code\": \"io.not_found\""), std::string::npos) << out;
  testing::internal::CaptureStderr();
  EXPECT_EQ(cli::fail_with(core::Diagnostic::error("weather.magic", "bad")), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "sortie: bad [weather.magic]\n");
}

}  // namespace
}  // namespace sortie::cli_test
