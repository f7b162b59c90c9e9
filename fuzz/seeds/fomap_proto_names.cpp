#include <string_view>

#include "seeds.hpp"
#include "sortie/core/bytes.hpp"

namespace {
sortie::core::Bytes text(std::string_view s) {
  return {s.begin(), s.end()};
}
}  // namespace

// The `--proto-names` table of `sortie fomap migrate`: pid TAB name, comments, CRLF, and the
// lines it refuses (no tab, a pid twice, no name).
SORTIE_FUZZ_SEEDS(fomap_proto_names, [](sortie::fuzz::SeedSink& out) {
  out.add("table", text("# classic pid -> proto name\n12\tGuard\n3\tRifle\n\n5000\tCrate Large\n"));
  out.add("crlf", text("1\tA\r\n2\tB\r\n-7\tNegative\r\n"));
  out.add("no_tab", text("1 Guard\n"));
  out.add("twice", text("4\tA\n4\tB\n"));
  out.add("no_name", text("9\t\n"));
});
