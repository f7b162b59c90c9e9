// Real-map corpus (../shared/corpus/fomap relative to the source dir): every current-format map
// passes the strict gate with zero findings against its protos and is already canonical;
// perturbed copies come back to the original bytes through fmt. Skipped when absent.
#include "sortie_test/corpus.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>

#include "sortie/core/file_io.hpp"
#include "sortie/fomap/canonical.hpp"
#include "sortie/fomap/lint.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = test::fomap_corpus();

struct CorpusSet {
  fs::path maps_dir;
  fs::path protos_dir;
};

std::vector<CorpusSet> corpus_sets() {
  return {
      {kCorpus / "new/cvet__fonline-tla", kCorpus / "protos/cvet__fonline-tla"},
      {kCorpus / "new/cvet__fonline@84990df655/Examples/ContentShowcase",
       kCorpus / "protos/cvet__fonline@84990df655/Examples/ContentShowcase"},
      {kCorpus / "new/cvet__fonline@84990df655/Examples/MinimalMultiplayer",
       kCorpus / "protos/cvet__fonline@84990df655/Examples/MinimalMultiplayer"},
  };
}

std::vector<fs::path> maps_under(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".fomap") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

const Project& project_for(const fs::path& protos) {
  static std::map<fs::path, Project> cache;
  auto it = cache.find(protos);
  if (it == cache.end()) it = cache.emplace(protos, Project::load({protos})).first;
  return it->second;
}

TEST(FomapCorpus, every_current_map_passes_the_strict_gate_and_is_canonical) {
  if (!fs::exists(kCorpus / "new")) GTEST_SKIP() << "corpus not present at " << kCorpus;
  std::size_t files = 0;
  for (const auto& set : corpus_sets()) {
    if (!fs::exists(set.maps_dir)) continue;
    const Project& project = project_for(set.protos_dir);
    EXPECT_TRUE(project.has_protos);
    for (const auto& path : maps_under(set.maps_dir)) {
      auto text = core::read_text_file(path);
      ASSERT_TRUE(text.has_value()) << path;
      MapContainer c = MapContainer::from_text(*text, path.generic_string());
      LintReport r = lint_container(c, project, {.strict = true});
      EXPECT_EQ(r.findings.size(), 0u) << path << ": " << (r.findings.empty() ? "" : r.findings[0].to_string());
      auto out = format_container(c, project);
      ASSERT_TRUE(out.has_value()) << path << ": " << out.error().to_string();
      if (*out != *text) {
        std::size_t i = 0;
        while (i < out->size() && i < text->size() && (*out)[i] == (*text)[i]) ++i;
        ADD_FAILURE() << path << ": fmt differs at byte " << i << ": got '" << out->substr(i > 40 ? i - 40 : 0, 120)
                      << "' want '" << text->substr(i > 40 ? i - 40 : 0, 120) << "'";
      }
      ++files;
    }
  }
  EXPECT_GT(files, 100u);
}

// Perturbation: shuffle keys inside placement sections, move critter sections after the items,
// join continuations and add blank lines; fmt must restore the original bytes.
std::string perturb(const std::string& text, std::mt19937& rng) {
  // split into section blocks
  std::vector<std::string> blocks;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t next = text.find("\n[", pos);
    const std::size_t end = next == std::string::npos ? text.size() : next + 1;
    blocks.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  // Critter sections move after all item sections (relative orders kept): the loader and the
  // Mapper order do not depend on it.
  std::stable_partition(blocks.begin(), blocks.end(),
                        [](const std::string& blk) { return blk.find("/Critter]") == std::string::npos; });
  std::string out;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::string& blk = blocks[b];
    // logical lines (join continuation lines into one line)
    std::vector<std::string> lines;
    std::size_t p = 0;
    std::string pending;
    while (p < blk.size()) {
      std::size_t nl = blk.find('\n', p);
      std::string line = blk.substr(p, nl == std::string::npos ? std::string::npos : nl - p);
      p = nl == std::string::npos ? blk.size() : nl + 1;
      if (line.size() >= 2 && line.substr(line.size() - 2) == " \\") {
        pending += line.substr(0, line.size() - 1);
        continue;
      }
      line = pending + line;
      pending.clear();
      if (!line.empty()) lines.push_back(line);
    }
    if (lines.empty()) continue;
    const bool is_header = lines[0] == "[ProtoMap]";
    if (!is_header) std::shuffle(lines.begin() + 1, lines.end(), rng);
    for (const auto& l : lines) {
      out += l;
      out += '\n';
      if (!is_header && (rng() % 7) == 0) out += "\n";
    }
    out += "\n\n";
  }
  // keep the original trailing layout
  while (out.size() >= 2 && out.substr(out.size() - 2) == "\n\n") out.pop_back();
  if (text.size() >= 2 && text.substr(text.size() - 2) == "\n\n") out += '\n';
  return out;
}

TEST(FomapCorpus, perturbed_copies_format_back_to_original_bytes) {
  if (!fs::exists(kCorpus / "new")) GTEST_SKIP() << "corpus not present at " << kCorpus;
  std::mt19937 rng(12345);
  std::size_t checked = 0;
  for (const auto& set : corpus_sets()) {
    if (!fs::exists(set.maps_dir)) continue;
    const Project& project = project_for(set.protos_dir);
    auto paths = maps_under(set.maps_dir);
    for (std::size_t i = 0; i < paths.size(); i += 9) {  // a sample keeps the test fast
      auto text = core::read_text_file(paths[i]);
      ASSERT_TRUE(text.has_value());
      const std::string mangled = perturb(*text, rng);
      if (mangled == *text) continue;
      MapContainer c = MapContainer::from_text(mangled, paths[i].generic_string());
      auto out = format_container(c, project);
      ASSERT_TRUE(out.has_value()) << paths[i] << ": " << out.error().to_string();
      EXPECT_TRUE(*out == *text) << paths[i];
      ++checked;
    }
  }
  EXPECT_GT(checked, 10u);
}

}  // namespace
}  // namespace sortie::fomap
