#pragma once
// What a session loop leaves on disk (private to libs/net): the message log and the trace.
#include <filesystem>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/net/trace.hpp"

namespace sortie::net::detail {

// Writes `log` to `log_path` (atomically; empty path: nothing) and saves the trace (nullptr: none).
inline core::Status save_session_files(const std::filesystem::path& log_path, const core::Bytes& log,
                                       const FileTrace* trace) {
  if (!log_path.empty()) SORTIE_CHECK(core::write_file_atomic(log_path, log));
  if (trace != nullptr) SORTIE_CHECK(trace->save());
  return {};
}

}  // namespace sortie::net::detail
