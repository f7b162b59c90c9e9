#pragma once
// The `sortie archive ...` subcommand group: list and extract (cmd_archive.cpp), pack
// (cmd_archive_pack.cpp), add, remove and rename (cmd_archive_edit.cpp) over the archive facade
// (libs/iron3d archive.hpp, archive_files.hpp). What the verbs share is here.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/archive.hpp"

namespace sortie::cli {

// Creates the `archive` group on `root` the first time, returns the same group afterwards.
CLI::App& archive_group(CLI::App& root);

struct ArchiveOptions {
  std::string archive;  // input archive (list, extract, add, remove, rename)
  std::string source;   // pack: directory or manifest
  std::string out;      // -o
  std::vector<std::string> names;
  std::string file;        // add: payload file
  std::string entry_name;  // add --name
  std::string type;        // add --type
  std::string method;      // add/pack --method (RsLi)
  std::string format;      // pack --format for a directory without a manifest
  std::uint32_t attr1 = 0, attr2 = 0, attr3 = 0;
  std::string old_name, new_name;
  bool json = false;
  bool compatible = false;
  bool canonical = false;
  bool replace = false;
};

inline core::Profile profile_of(const ArchiveOptions& o) {
  return o.compatible ? core::Profile::compatible : core::Profile::strict;
}
inline core::Result<iron3d::Archive> open_archive(const ArchiveOptions& o) {
  return iron3d::Archive::open_file(o.archive, profile_of(o));
}

// Prints the diagnostic, with a hint where --compatible would accept the archive; returns its
// exit code.
int report_archive_error(const core::Diagnostic& d);

// --compatible.
void add_common(CLI::App* cmd, ArchiveOptions& o);
// -o, --canonical and --compatible of the verbs that write an archive.
void add_write_flags(CLI::App* cmd, ArchiveOptions& o);

}  // namespace sortie::cli
