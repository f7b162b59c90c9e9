// The `sortie fomap` group shared by every fomap verb.
#include "fomap_group.hpp"

#include <algorithm>
#include <map>

namespace sortie::cli {

CLI::App& fomap_group(CLI::App& root) {
  static std::map<CLI::App*, CLI::App*> groups;
  auto it = groups.find(&root);
  if (it != groups.end()) return *it->second;
  CLI::App* g = root.add_subcommand("fomap", "FOnline .fomap map containers: lint, canonical format, ...");
  g->require_subcommand(1);
  g->footer(
      "Examples:\n"
      "  sortie fomap lint Maps/ --protos Protos/ --strict\n"
      "  sortie fomap fmt --check --protos Protos/ Maps/\n");
  groups.emplace(&root, g);
  return *g;
}

std::vector<std::filesystem::path> collect_files(const std::vector<std::string>& args, const std::vector<std::string>& extensions,
                                                 std::vector<std::string>& missing) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const auto& a : args) {
    std::error_code ec;
    const fs::path p(a);
    if (fs::is_regular_file(p, ec)) {
      out.push_back(p);
      continue;
    }
    if (!fs::is_directory(p, ec)) {
      missing.push_back(a);
      continue;
    }
    std::vector<fs::path> found;
    for (auto i = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
         !ec && i != fs::recursive_directory_iterator(); i.increment(ec)) {
      if (!i->is_regular_file(ec)) continue;
      std::string ext = i->path().extension().string();
      if (!ext.empty()) ext.erase(0, 1);
      if (std::find(extensions.begin(), extensions.end(), ext) != extensions.end()) found.push_back(i->path());
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace sortie::cli
