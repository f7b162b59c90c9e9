#pragma once
// Shared helpers of the legacy migrators (private to libs/fomap).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sortie/fomap/migrate.hpp"

namespace sortie::fomap::migrate_detail {

struct Line {
  std::string_view text;  // with its line ending
  std::uint32_t number = 0;
};
std::vector<Line> split_lines(std::string_view text);

struct HeaderLine {
  std::string_view name;  // trimmed text between '[' and the first ']'
  std::size_t open = 0;   // offset of '[' in the line
  std::size_t close = 0;  // offset of the first ']' in the line
};
std::optional<HeaderLine> parse_header(std::string_view line);

class LossLog {
 public:
  void add(std::string code, std::string what, std::string message, std::uint32_t line, std::uint64_t n = 1);
  std::vector<MigrationLoss> take();

 private:
  std::map<std::pair<std::string, std::string>, MigrationLoss> losses_;
};

// Keys of one section, byte-sorted like the engine's std::map.
using KeyMap = std::map<std::string, std::string>;
void write_section(std::string& out, std::string_view header, const KeyMap& keys);

bool iequals(std::string_view a, std::string_view b);

// The catalog a conversion checks keys against (MigrateOptions::catalog or the engine's).
const PropertyCatalog& target_catalog(const MigrateOptions& options);
// Drops (and reports) keys the target catalog does not know for the receiver; `$` keys stay.
void keep_known(KeyMap& keys, std::string_view receiver, const PropertyCatalog& catalog, LossLog& losses,
                std::uint32_t line);

core::Result<MigrationResult> migrate_classic(std::string_view text, std::string_view path,
                                              const MigrateOptions& options);

}  // namespace sortie::fomap::migrate_detail
