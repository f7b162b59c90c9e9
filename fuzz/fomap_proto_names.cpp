// Fuzzes the `--proto-names` table reader (parse_proto_name_table): a table it accepts is written
// back one `<pid><TAB><name>\r\n` line per entry and must read back to the same table; a refusal
// is always `usage.proto_names` naming the line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sortie/fomap/migrate.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto table = sortie::fomap::parse_proto_name_table(text, "fuzz.tsv");
  if (!table) {
    if (table.error().code != "usage.proto_names" || table.error().field.rfind("line ", 0) != 0) __builtin_trap();
    return 0;
  }
  std::string again;
  for (const auto& [pid, name] : *table) {
    if (name.empty() || name.find('\n') != std::string::npos) __builtin_trap();
    again += std::to_string(pid) + "\t" + name + "\r\n";
  }
  auto reread = sortie::fomap::parse_proto_name_table(again, "again.tsv");
  if (!reread || *reread != *table) __builtin_trap();
  return 0;
}
