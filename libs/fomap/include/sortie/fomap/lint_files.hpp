#pragma once
// `sortie fomap lint FILES...` as one call: every map file read and linted against the project,
// then the pack-wide identity check over every map they declare (lint.hpp has the rules).
#include <cstddef>
#include <filesystem>
#include <functional>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/lint.hpp"

namespace sortie::fomap {

struct LintFilesRun {
  LintReport report;            // every file's findings, then the pack identity's
  core::Diagnostics io_errors;  // files that could not be read (exit 2)
};

// `progress(done, file)` after each file.
LintFilesRun lint_files(const std::vector<std::filesystem::path>& files, const Project& project,
                        const LintOptions& options,
                        const std::function<void(std::size_t, const std::filesystem::path&)>& progress = {});

}  // namespace sortie::fomap
