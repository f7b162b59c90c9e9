#pragma once
// What a session loop leaves on disk (private to libs/net): the message log and the trace.
#include <filesystem>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/net/trace.hpp"

namespace sortie::net::detail {

// Saves the trace (nullptr: none), then writes `log` to `log_path` (atomically; empty path:
// nothing). The trace goes first: a log that cannot be written does not cost it.
inline core::Status save_session_files(const std::filesystem::path& log_path, const core::Bytes& log,
                                       const FileTrace* trace) {
  if (trace != nullptr) SORTIE_CHECK(trace->save());
  if (!log_path.empty()) SORTIE_CHECK(core::write_file_atomic(log_path, log));
  return {};
}

}  // namespace sortie::net::detail
