#pragma once
// The FOnline ConfigFile grammar (spec/fomap.md §2): line assembly with backslash continuation,
// `#` comments outside quotes, `[Section]` headers (repeatable, nested names verbatim),
// `key = value`, `key += value`, last assignment wins within one section body.
//
// A ConfigFile owns its text; every string_view and span below points into storage owned by the
// ConfigFile (heap blocks that stay put when the ConfigFile is moved).
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sortie::fomap {

// One stored assignment. Quotes and backslashes are kept exactly as written (§2.3.6).
struct ConfigEntry {
  std::string_view key;
  std::string_view value;
  std::uint32_t line = 0;         // 1-based physical line where the (first) assignment starts
  std::uint32_t last_line = 0;    // physical line where that logical line ends (continuations)
  bool appended = false;          // value was built (at least partly) by `+=`
  std::uint32_t assignments = 1;  // how many lines assigned this key in this body (>1 = overwritten)
};

// One section body. Entries are sorted by key bytes (the engine stores a std::map), so this is
// also the order in which the engine applies properties and the order the Mapper writes them.
struct ConfigSection {
  std::string_view name;                 // verbatim between `[` and the first `]`, trimmed; "" = default
  std::uint32_t header_line = 0;         // 1-based line of the `[...]` header; 0 for the default section
  std::uint32_t end_line = 0;            // last physical line that belongs to this body
  std::span<const ConfigEntry> entries;  // stored by the ConfigFile (blocks shared by all sections)
  // Lines inside this body that were not valid assignments (ignored by the engine):
  // bare words, `{100}{20}{x}`, `= v`, malformed headers (`[x`, `[]`). Line numbers only.
  std::vector<std::uint32_t> ignored_lines;

  [[nodiscard]] bool is_default() const { return header_line == 0; }
  [[nodiscard]] bool nested() const { return name.find('/') != std::string_view::npos; }
  [[nodiscard]] const ConfigEntry* find(std::string_view key) const;  // binary search
};

struct ConfigOptions {
  bool skip_nested_sections = false;  // drop sections whose name contains '/' (with bodies)
};

// Facts about the physical text the grammar saw (used by lint for `config-syntax`).
struct ConfigTextFacts {
  std::uint32_t line_count = 0;                 // physical lines (split on '\n', final empty line counted)
  std::uint32_t crlf_lines = 0;                 // lines that ended with "\r\n"
  std::uint32_t comment_lines = 0;              // logical lines that were only a comment
  std::uint32_t continuation_lines = 0;         // physical lines joined by ` \`
  std::uint32_t dropped_continuation_line = 0;  // line of a continuation dropped at EOF (0 = none)
  bool ends_with_newline = false;
};

class ConfigFile {
 public:
  ConfigFile() = default;
  ConfigFile(ConfigFile&&) noexcept = default;
  ConfigFile& operator=(ConfigFile&&) noexcept = default;
  ConfigFile(const ConfigFile&) = delete;
  ConfigFile& operator=(const ConfigFile&) = delete;

  // All sections in file order; sections()[0] is always the default (pre-first-header) section.
  [[nodiscard]] const std::vector<ConfigSection>& sections() const { return sections_; }
  // Every body with this exact name, in file order.
  [[nodiscard]] std::vector<const ConfigSection*> sections_named(std::string_view name) const;
  // First body with this name, or nullptr.
  [[nodiscard]] const ConfigSection* section(std::string_view name) const;
  // Lookup in the first body of `section_name`; nullptr when absent.
  [[nodiscard]] const ConfigEntry* find(std::string_view section_name, std::string_view key) const;
  [[nodiscard]] const ConfigTextFacts& facts() const { return facts_; }
  // The exact input text.
  [[nodiscard]] std::string_view text() const { return text_ ? std::string_view(*text_) : std::string_view(); }

  friend ConfigFile parse_config(std::string text, ConfigOptions options);

 private:
  std::unique_ptr<std::string> text_;
  std::unique_ptr<std::deque<std::string>> arena_;  // joined continuations and `+=` results
  // The entries of every section, in blocks that never move: a section's entries are contiguous
  // in one block (no allocation per section: a map holds hundreds of thousands of them).
  std::vector<std::unique_ptr<ConfigEntry[]>> entry_blocks_;
  std::vector<ConfigSection> sections_;
  ConfigTextFacts facts_;
};

// Never fails: the engine grammar silently ignores what it cannot read (recorded as
// ConfigSection::ignored_lines and ConfigTextFacts for lint).
ConfigFile parse_config(std::string text, ConfigOptions options = {});

// Trim with the line-assembly set {space, \t, \r, \n} (§2.1.3).
std::string_view trim_line(std::string_view s);
// Trim with the key/value set {space, \t, \r, \n, \f, \v} (§2.3.2).
std::string_view trim_value(std::string_view s);

}  // namespace sortie::fomap
