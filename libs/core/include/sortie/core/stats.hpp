#pragma once
// Order statistics of measured samples (frame times, query times): the one percentile rule of
// the viewer's --bench-frames and the benchmarks. The q-quantile of n sorted samples is the one
// at index floor(q * (n - 1)) (no interpolation), so p50 of {1, 2, 3, 4} is 2 and p100 the max.
#include <cstddef>
#include <vector>

namespace sortie::core {

struct Summary {
  std::size_t count = 0;
  double min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
};

// The q-quantile (0 <= q <= 1) of samples sorted ascending; 0 for none.
double quantile_of_sorted(const std::vector<double>& sorted, double q);
// count, min, p50, p90, p99, max and mean of `samples` (any order); zeros for none.
Summary summarize(std::vector<double> samples);

}  // namespace sortie::core
