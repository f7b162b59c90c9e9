#pragma once
// Seed corpus registration. A seeds/<name>.cpp file does
//   SORTIE_FUZZ_SEEDS(nres, [](sortie::fuzz::SeedSink& out) { out.add("empty", bytes); });
// and `fuzz_seeds DIR` writes DIR/<name>/<seed> for every registered target.
#include <functional>
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"

namespace sortie::fuzz {

struct SeedSink {
  std::vector<std::pair<std::string, core::Bytes>> seeds;
  void add(std::string name, core::Bytes bytes) { seeds.emplace_back(std::move(name), std::move(bytes)); }
};

using SeedFn = std::function<void(SeedSink&)>;
void register_seeds(std::string target, SeedFn fn);

struct SeedRegistration {
  SeedRegistration(std::string target, SeedFn fn) { register_seeds(std::move(target), std::move(fn)); }
};

}  // namespace sortie::fuzz

#define SORTIE_FUZZ_SEEDS(name, ...) \
  static const ::sortie::fuzz::SeedRegistration sortie_fuzz_seeds_##name(#name, __VA_ARGS__)
