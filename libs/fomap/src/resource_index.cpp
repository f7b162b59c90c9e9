// Resource roots: one directory listing per run, ASCII case-insensitive lookup (resource_index.hpp).
#include "sortie/fomap/resource_index.hpp"

#include <algorithm>
#include <system_error>

#include "sortie/core/text.hpp"

namespace sortie::fomap {

namespace fs = std::filesystem;

std::string ResourceIndex::normalize(std::string_view path) {
  std::string out(path);
  std::replace(out.begin(), out.end(), '\\', '/');
  return out;
}

void ResourceIndex::add(std::string_view relative_path) {
  std::string spelling = normalize(relative_path);
  auto& spellings = by_folded_[core::ascii_lower(spelling)];
  auto it = std::lower_bound(spellings.begin(), spellings.end(), spelling);
  if (it != spellings.end() && *it == spelling) return;  // same file under another root
  spellings.insert(it, std::move(spelling));
  ++files_;
}

ResourceIndex::Match ResourceIndex::find(std::string_view value) const {
  Match m;
  m.normalized = normalize(value);
  auto it = by_folded_.find(core::ascii_lower(m.normalized));
  if (it == by_folded_.end()) return m;
  m.candidates = it->second;
  m.kind = m.candidates.size() == 1 ? MatchKind::found : MatchKind::ambiguous;
  return m;
}

ResourceIndex ResourceIndex::scan(const std::vector<fs::path>& roots, core::Diagnostics& notes) {
  ResourceIndex index;
  for (const auto& root : roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
      notes.push_back(core::Diagnostic::error("io.open", "resource root is not a directory").of(root.generic_string()));
      continue;
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
      notes.push_back(core::Diagnostic::error("io.read", ec.message()).of(root.generic_string()));
      continue;
    }
    for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      std::error_code type_ec;
      if (!it->is_regular_file(type_ec)) continue;
      index.add(it->path().lexically_relative(root).generic_string());
    }
    if (ec) notes.push_back(core::Diagnostic::error("io.read", ec.message()).of(root.generic_string()));
  }
  return index;
}

}  // namespace sortie::fomap
