#pragma once
// Prototype files (spec/fomap.md §13): `[Proto<Type>]` sections in any proto container
// (.fopro, .focr, .foitem, .foloc, .fomap ...), `$Name` (or the file stem), `$Parent` lists
// resolved recursively (parents first, later parents win, the child wins), `$Text` keys.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/config.hpp"
#include "sortie/fomap/properties.hpp"

namespace sortie::fomap {

struct Proto {
  std::string type;  // "Item", "Critter", "Map", "Location", project types
  std::string name;
  std::string file;                                       // path the proto came from
  std::uint32_t line = 0;                                 // header line
  std::vector<std::string> parents;                       // `$Parent` split on spaces
  std::map<std::string, std::string, std::less<>> own;    // own non-`$` keys, raw values
  std::map<std::string, std::string, std::less<>> texts;  // own `$Text ...` keys, raw values
  // Effective non-`$` keys after `$Parent` resolution (filled by ProtoCatalog::resolve);
  // property names are migrated (IsStatic -> Static) when the catalog knows the rule.
  std::map<std::string, std::string, std::less<>> resolved;
  bool resolved_ok = false;
};

class ProtoCatalog {
 public:
  // Adds every `[Proto<Type>]` section of one proto container. Nested sections are skipped,
  // the default section is ignored; other top-level sections are findings
  // (`fomap.proto.section`) unless the file also declares `[ProtoMap]` (map containers).
  core::Diagnostics add_text(std::string text, std::string_view file_path);
  // Reads one file (add_text); I/O errors come back as diagnostics.
  core::Diagnostics add_file(const std::filesystem::path& path);

  // Resolves `$Parent` chains (missing parent, cross-type parent, cycle -> diagnostics
  // `fomap.proto.parent_*`) and applies property migration of `catalog` to key names.
  core::Diagnostics resolve(const PropertyCatalog& catalog);

  // Lookup by type and exact (case-sensitive) name; nullptr when absent.
  [[nodiscard]] const Proto* find(std::string_view type, std::string_view name) const;
  [[nodiscard]] std::size_t size() const { return protos_.size(); }
  [[nodiscard]] const std::map<std::string, Proto, std::less<>>& all() const { return protos_; }  // "Type.Name"

 private:
  std::map<std::string, Proto, std::less<>> protos_;
  // Open-addressing index over protos_ (hash of "Type.Name", proto; size a power of two):
  // a lookup reads one flat array instead of hash-table nodes.
  std::vector<std::pair<std::uint64_t, const Proto*>> index_;
  std::size_t indexed_ = 0;
  void index(std::string_view key, const Proto* proto);
  void place(std::uint64_t hash, const Proto* proto);
};

// File extensions read as proto containers when walking a protos directory:
// fopro, focr, foitem, foloc, fomap, fomain(-only for `Baking.ProtoFileExtensions`), ...
bool is_proto_file_extension(std::string_view ext_without_dot);

}  // namespace sortie::fomap
