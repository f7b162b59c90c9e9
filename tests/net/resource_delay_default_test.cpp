// Network_ResourceTransferMaxDelay (docs/behavior-ini.md): Behavior.ini's value is parsed into
// move::MoveParams (default 30 s) but does not reach the network layer, whose transfer limit is
// its own configuration (default 10 s, `sortie serve --resource-max-delay`). This pins both
// defaults as documented; wiring the key to the session changes the docs and this test.
#include <gtest/gtest.h>

#include "sortie/move/params.hpp"
#include "sortie/net/client.hpp"
#include "sortie/net/server.hpp"

TEST(ResourceDelayDefaults, net_and_behavior_ini_keep_separate_limits) {
  EXPECT_EQ(sortie::net::ServerConfig{}.resource_max_delay_us, 10'000'000u);
  EXPECT_EQ(sortie::net::ClientConfig{}.resource_max_delay_us, 10'000'000u);
  EXPECT_EQ(sortie::move::MoveParams{}.resource_transfer_max_delay, 30'000);
}
