// The one diagnostic -> exit code rule of every sortie program.
#include "sortie/core/exit_code.hpp"

#include <gtest/gtest.h>

namespace sortie::core {
namespace {

TEST(ExitCode, io_and_usage_are_two) {
  EXPECT_EQ(exit_code_for(Diagnostic::error("io.not_found", "x")), kExitUsage);
  EXPECT_EQ(exit_code_for(Diagnostic::error("usage.render.size", "x")), kExitUsage);
  EXPECT_EQ(exit_code_for("load.mission_missing"), kExitUsage);
  EXPECT_EQ(exit_code_for("join.timeout"), kExitUsage);
  EXPECT_EQ(exit_code_for("net.enet.connect"), kExitUsage);
}

TEST(ExitCode, invalid_input_is_one) {
  EXPECT_EQ(exit_code_for(Diagnostic::error("nres.magic", "x")), kExitInvalid);
  EXPECT_EQ(exit_code_for("load.mission_missing_extra"), kExitInvalid);
  EXPECT_EQ(exit_code_for("iox.something"), kExitInvalid);  // a prefix, not a substring
  EXPECT_EQ(exit_code_for("join.timeouts"), kExitInvalid);
  EXPECT_EQ(exit_code_for(""), kExitInvalid);
}

}  // namespace
}  // namespace sortie::core
