// core::summarize and quantile_of_sorted: the nearest-rank-below rule floor(q * (n - 1)).
#include "sortie/core/stats.hpp"

#include <gtest/gtest.h>

namespace sortie::core {
namespace {

TEST(Stats, quantiles_take_the_sample_at_floor_q_times_n_minus_one) {
  const std::vector<double> four = {1, 2, 3, 4};
  EXPECT_EQ(quantile_of_sorted(four, 0.5), 2.0);  // index 1.5 -> 1
  EXPECT_EQ(quantile_of_sorted(four, 0.0), 1.0);
  EXPECT_EQ(quantile_of_sorted(four, 1.0), 4.0);
  EXPECT_EQ(quantile_of_sorted(four, 2.0), 4.0);  // clamped
  EXPECT_EQ(quantile_of_sorted({}, 0.5), 0.0);
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);  // unsorted on purpose
  const Summary s = summarize(hundred);
  EXPECT_EQ(s.count, 100u);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.p50, 50.0);  // index 49
  EXPECT_EQ(s.p90, 90.0);  // index 89
  EXPECT_EQ(s.p99, 99.0);  // index 98
  EXPECT_EQ(s.max, 100.0);
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
  const Summary none = summarize({});
  EXPECT_EQ(none.count, 0u);
  EXPECT_EQ(none.max, 0.0);
}

}  // namespace
}  // namespace sortie::core
