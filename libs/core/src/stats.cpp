#include "sortie/core/stats.hpp"

#include <algorithm>
#include <numeric>

namespace sortie::core {

double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double clamped = std::clamp(q, 0.0, 1.0);
  return sorted[static_cast<std::size_t>(clamped * static_cast<double>(sorted.size() - 1))];
}

Summary summarize(std::vector<double> samples) {
  Summary s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.p50 = quantile_of_sorted(samples, 0.50);
  s.p90 = quantile_of_sorted(samples, 0.90);
  s.p99 = quantile_of_sorted(samples, 0.99);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  return s;
}

}  // namespace sortie::core
