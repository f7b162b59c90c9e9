// ConfigFile grammar (spec/fomap.md §2), re-implemented from the rules in the fact sheet.
#include "sortie/fomap/config.hpp"

#include <algorithm>
#include <array>

#include "sortie/core/text.hpp"

namespace sortie::fomap {
namespace {

constexpr bool is_line_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
constexpr bool is_value_blank(char c) {
  return is_line_blank(c) || c == '\f' || c == '\v';
}

constexpr std::array<bool, 256> kActs = [] {
  std::array<bool, 256> t{};
  t[static_cast<unsigned char>('=')] = true;
  t[static_cast<unsigned char>('"')] = true;
  t[static_cast<unsigned char>('#')] = true;
  return t;
}();

// True when an odd number of backslashes directly precedes `i`.
bool escaped_at(std::string_view line, std::size_t i) {
  std::size_t n = 0;
  while (n < i && line[i - 1 - n] == '\\') ++n;
  return n % 2 == 1;
}

struct KeyValue {
  std::string_view key;
  std::string_view value;
  bool append = false;
};

// §2.3: returns false when the line is not a valid assignment. `comment_only` tells whether the
// content was empty because of a comment.
bool split_key_value(std::string_view line, KeyValue& out, bool& comment_only) {
  comment_only = false;
  bool in_quotes = false;
  std::size_t eq = std::string_view::npos;
  std::size_t end = line.size();
  // Without a `#` the line has no comment: only the first `=` matters (the common case, and
  // the only one for long continued values).
  const bool may_comment = line.find('#') != std::string_view::npos;
  if (!may_comment) eq = line.find('=');
  // Only `=`, `"` and `#` act; whether one is escaped (an odd run of backslashes right before
  // it) is looked up when met, so ordinary bytes cost one table test.
  for (std::size_t i = 0; may_comment && i < line.size(); ++i) {
    const char c = line[i];
    if (!kActs[static_cast<unsigned char>(c)]) continue;
    if (c == '=') {
      if (eq == std::string_view::npos) eq = i;
      continue;
    }
    const bool escaped = escaped_at(line, i);
    if (c == '"') {
      if (!escaped) in_quotes = !in_quotes;
    } else if (!in_quotes && !escaped) {  // '#'
      end = i;
      break;
    }
  }
  std::string_view content = line.substr(0, end);
  // Trim content (value set); remember leading offset for the '=' position.
  std::size_t b = 0;
  while (b < content.size() && is_value_blank(content[b])) ++b;
  std::size_t e = content.size();
  while (e > b && is_value_blank(content[e - 1])) --e;
  if (b == e) {
    comment_only = end < line.size();
    return false;
  }
  if (eq == std::string_view::npos || eq >= end) return false;
  if (eq == b) return false;  // '=' is the first content character: empty key
  std::string_view key = line.substr(b, eq - b);
  bool append = false;
  if (!key.empty() && key.back() == '+') {
    append = true;
    key.remove_suffix(1);
  }
  key = trim_value(key);
  if (key.empty()) return false;
  out.key = key;
  out.value = trim_value(line.substr(eq + 1, e - (eq + 1)));
  out.append = append;
  return true;
}

// The entries of the section being parsed, kept at the end of the current block; a section that
// outgrows its block moves to a new one. Earlier sections' entries never move.
class EntryBlocks {
 public:
  explicit EntryBlocks(std::vector<std::unique_ptr<ConfigEntry[]>>& blocks) : blocks_(blocks) {}

  [[nodiscard]] std::span<ConfigEntry> open() { return {block_ + begin_, count_}; }
  // Inserts `e` at index `at` of the open section.
  void insert(std::size_t at, const ConfigEntry& e) {
    if (begin_ + count_ == capacity_) grow();
    ConfigEntry* first = block_ + begin_;
    std::move_backward(first + at, first + count_, first + count_ + 1);
    first[at] = e;
    ++count_;
  }
  // Closes the open section; the next one starts after it.
  std::span<const ConfigEntry> close() {
    const std::span<const ConfigEntry> done{block_ + begin_, count_};
    begin_ += count_;
    count_ = 0;
    return done;
  }

 private:
  static constexpr std::size_t kBlock = 4096;
  std::vector<std::unique_ptr<ConfigEntry[]>>& blocks_;
  ConfigEntry* block_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t begin_ = 0;
  std::size_t count_ = 0;

  void grow() {
    const std::size_t capacity = std::max(kBlock, count_ * 2);
    auto fresh = std::make_unique<ConfigEntry[]>(capacity);
    std::move(block_ + begin_, block_ + begin_ + count_, fresh.get());
    block_ = fresh.get();
    capacity_ = capacity;
    begin_ = 0;
    blocks_.push_back(std::move(fresh));
  }
};

// Sections the text will have at most: one per `[` (headers; a bracket inside a value only makes
// the estimate larger), plus the default section.
std::size_t section_estimate(std::string_view text) {
  std::size_t n = 1;
  for (std::size_t pos = text.find('['); pos != std::string_view::npos; pos = text.find('[', pos + 1)) ++n;
  return n;
}

}  // namespace

std::string_view trim_line(std::string_view s) {
  return core::trim(s, " \t\r\n");
}

std::string_view trim_value(std::string_view s) {
  return core::trim(s, core::kAsciiWhitespace);
}

const ConfigEntry* ConfigSection::find(std::string_view key) const {
  auto it = std::lower_bound(entries.begin(), entries.end(), key,
                             [](const ConfigEntry& e, std::string_view k) { return e.key < k; });
  if (it != entries.end() && it->key == key) return &*it;
  return nullptr;
}

std::vector<const ConfigSection*> ConfigFile::sections_named(std::string_view name) const {
  std::vector<const ConfigSection*> out;
  for (std::size_t i = 1; i < sections_.size(); ++i)
    if (sections_[i].name == name) out.push_back(&sections_[i]);
  return out;
}

const ConfigSection* ConfigFile::section(std::string_view name) const {
  for (std::size_t i = 1; i < sections_.size(); ++i)
    if (sections_[i].name == name) return &sections_[i];
  return nullptr;
}

const ConfigEntry* ConfigFile::find(std::string_view section_name, std::string_view key) const {
  const ConfigSection* s = section(section_name);
  return s ? s->find(key) : nullptr;
}

ConfigFile parse_config(std::string text, ConfigOptions options) {
  ConfigFile file;
  file.text_ = std::make_unique<std::string>(std::move(text));
  file.arena_ = std::make_unique<std::deque<std::string>>();
  const std::string_view all(*file.text_);
  auto& arena = *file.arena_;
  auto& facts = file.facts_;
  facts.ends_with_newline = !all.empty() && all.back() == '\n';

  file.sections_.reserve(section_estimate(all));
  file.sections_.emplace_back();
  ConfigSection* current = &file.sections_.back();
  EntryBlocks entries_of(file.entry_blocks_);
  bool skipping = false;

  std::string pending;  // continuation text (already ends with one space)
  bool has_pending = false;
  std::uint32_t pending_first_line = 0;

  auto store = [&](const KeyValue& kv, std::uint32_t first_line, std::uint32_t last_line) {
    const std::span<ConfigEntry> entries = entries_of.open();
    auto it = entries.end();
    if (!entries.empty() && entries.back().key < kv.key) {
      it = entries.end();
    } else {
      it = std::lower_bound(entries.begin(), entries.end(), kv.key,
                            [](const ConfigEntry& e, std::string_view k) { return e.key < k; });
      if (it != entries.end() && it->key == kv.key) {
        ConfigEntry& existing = *it;
        existing.assignments += 1;
        if (kv.append) {
          existing.appended = true;
          if (!kv.value.empty()) {
            std::string joined;
            joined.reserve(existing.value.size() + 1 + kv.value.size());
            joined.append(existing.value).append(1, ' ').append(kv.value);
            arena.push_back(std::move(joined));
            existing.value = arena.back();
          }
        } else {
          existing.value = kv.value;
          existing.line = first_line;
          existing.last_line = last_line;
          existing.appended = false;
        }
        return;
      }
    }
    ConfigEntry entry;
    entry.key = kv.key;
    entry.value = kv.value;
    entry.line = first_line;
    entry.last_line = last_line;
    entry.appended = kv.append;
    entries_of.insert(static_cast<std::size_t>(it - entries.begin()), entry);
  };

  std::uint32_t line_no = 0;
  std::size_t pos = 0;
  while (true) {
    const std::size_t nl = all.find('\n', pos);
    const bool last = nl == std::string_view::npos;
    std::string_view raw = all.substr(pos, last ? std::string_view::npos : nl - pos);
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') {
      raw.remove_suffix(1);
      if (!last) ++facts.crlf_lines;
    }
    std::string_view line = trim_line(raw);
    std::uint32_t first_line = line_no;
    bool joined = false;
    if (has_pending) {
      // The pending text is prefixed in place: a long continued value (a MultihexMesh with
      // thousands of pairs) is built in one buffer, never copied per physical line.
      pending.append(line);
      line = pending;
      joined = true;
      first_line = pending_first_line;
      has_pending = false;
    }
    if (!line.empty()) {
      // §2.1.6 continuation
      if (line.size() >= 2 && line.back() == '\\' && (line[line.size() - 2] == ' ' || line[line.size() - 2] == '\t')) {
        std::size_t n = line.size() - 1;
        while (n > 0 && is_line_blank(line[n - 1])) --n;
        if (joined)
          pending.resize(n);
        else
          pending.assign(line.data(), n);
        pending.push_back(' ');
        has_pending = true;
        pending_first_line = first_line;
        ++facts.continuation_lines;
        if (last) break;
        pos = nl + 1;
        continue;
      }
      if (joined) {
        arena.push_back(std::move(pending));
        pending = std::string();
        line = arena.back();
      }
      if (line.front() == '[') {
        const std::size_t close = line.find(']');
        std::string_view name =
            close == std::string_view::npos ? std::string_view() : trim_line(line.substr(1, close - 1));
        if (close == std::string_view::npos || name.empty()) {
          if (!skipping) current->ignored_lines.push_back(line_no);
        } else {
          current->end_line = line_no - 1;
          if (options.skip_nested_sections && name.find('/') != std::string_view::npos) {
            skipping = true;
          } else {
            skipping = false;
            current->entries = entries_of.close();
            file.sections_.emplace_back();
            current = &file.sections_.back();
            current->name = name;
            current->header_line = line_no;
          }
        }
      } else if (!skipping) {
        KeyValue kv;
        bool comment_only = false;
        if (split_key_value(line, kv, comment_only)) {
          store(kv, first_line, line_no);
        } else if (comment_only) {
          ++facts.comment_lines;
        } else {
          current->ignored_lines.push_back(first_line);
        }
      }
    }
    if (last) break;
    pos = nl + 1;
  }
  if (has_pending) facts.dropped_continuation_line = pending_first_line;
  facts.line_count = line_no;
  current->end_line = line_no;
  current->entries = entries_of.close();
  return file;
}

}  // namespace sortie::fomap
