#include "sortie/fomap/lint_files.hpp"

#include <utility>

#include "sortie/core/file_io.hpp"

namespace sortie::fomap {

LintFilesRun lint_files(const std::vector<std::filesystem::path>& files, const Project& project,
                        const LintOptions& options,
                        const std::function<void(std::size_t, const std::filesystem::path&)>& progress) {
  LintFilesRun run;
  std::vector<DeclaredMap> declared;
  std::size_t done = 0;
  for (const auto& path : files) {
    auto text = core::read_text_file(path);
    if (!text) {
      run.io_errors.push_back(text.error());
      continue;
    }
    const auto container = MapContainer::from_text(std::move(*text), path.generic_string());
    run.report.merge(lint_container(container, project, options));
    for (auto& d : declared_maps(container)) declared.push_back(std::move(d));
    if (progress) progress(++done, path);
  }
  LintReport pack = lint_pack_identity(declared);
  pack.files = pack.maps = pack.placements = 0;  // counted by the files above
  run.report.merge(std::move(pack));
  return run;
}

}  // namespace sortie::fomap
