// AngelScript declaration scanner for the lint's script check (script_index.hpp). One linear
// pass, one token of look-ahead, no recursion: bodies are skipped by counting braces.
#include "sortie/fomap/script_index.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <system_error>

#include "sortie/core/file_io.hpp"
#include "sortie/core/text.hpp"
#include "sortie/fomap/limits.hpp"

namespace sortie::fomap {
namespace {

namespace fs = std::filesystem;

// Namespaces nested deeper than kMaxScriptNamespaceDepth (limits.hpp) are not entered (their
// bodies are skipped as blocks).

enum class Tok : std::uint8_t { ident, punct, scope, literal, end };

struct Token {
  Tok kind = Tok::end;
  std::string_view text;
  std::uint32_t line = 0;
  [[nodiscard]] bool is(char c) const { return kind == Tok::punct && text.size() == 1 && text[0] == c; }
  [[nodiscard]] bool is_word(std::string_view w) const { return kind == Tok::ident && text == w; }
};

bool ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool ident_char(unsigned char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token next() {
    const std::size_t n = s_.size();
    while (i_ < n) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '\n') {
        ++line_;
        ++i_;
        line_start_ = true;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
        continue;
      }
      if (c == '#' && line_start_) {  // preprocessor line, with `\` continuations
        while (i_ < n && s_[i_] != '\n') {
          if (s_[i_] == '\\' && i_ + 1 < n && s_[i_ + 1] == '\n') {
            ++line_;
            ++i_;
          }
          ++i_;
        }
        continue;
      }
      line_start_ = false;
      if (c == '/' && i_ + 1 < n && s_[i_ + 1] == '/') {
        while (i_ < n && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '/' && i_ + 1 < n && s_[i_ + 1] == '*') {
        i_ += 2;
        while (i_ < n && !(s_[i_] == '*' && i_ + 1 < n && s_[i_ + 1] == '/')) {
          if (s_[i_] == '\n') ++line_;
          ++i_;
        }
        i_ = std::min(n, i_ + 2);
        continue;
      }
      const std::size_t b = i_;
      const std::uint32_t line = line_;
      if (c == '"' && s_.substr(i_, 3) == "\"\"\"") {  // heredoc string, may span lines
        i_ += 3;
        while (i_ < n && s_.substr(i_, 3) != "\"\"\"") {
          if (s_[i_] == '\n') ++line_;
          ++i_;
        }
        i_ = std::min(n, i_ + 3);
        return {Tok::literal, s_.substr(b, i_ - b), line};
      }
      if (c == '"' || c == '\'') {  // one-line string; an unterminated one ends at the line end
        ++i_;
        while (i_ < n && s_[i_] != static_cast<char>(c) && s_[i_] != '\n')
          i_ += (s_[i_] == '\\' && i_ + 1 < n && s_[i_ + 1] != '\n') ? 2 : 1;
        if (i_ < n && s_[i_] == static_cast<char>(c)) ++i_;
        return {Tok::literal, s_.substr(b, i_ - b), line};
      }
      if (c >= '0' && c <= '9') {
        while (i_ < n && (ident_char(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
        return {Tok::literal, s_.substr(b, i_ - b), line};
      }
      if (ident_start(c)) {
        while (i_ < n && ident_char(static_cast<unsigned char>(s_[i_]))) ++i_;
        return {Tok::ident, s_.substr(b, i_ - b), line};
      }
      if (c == ':' && i_ + 1 < n && s_[i_ + 1] == ':') {
        i_ += 2;
        return {Tok::scope, s_.substr(b, 2), line};
      }
      ++i_;
      return {Tok::punct, s_.substr(b, 1), line};
    }
    return {Tok::end, {}, line_};
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
  std::uint32_t line_ = 1;
  bool line_start_ = true;
};

using TokenSpan = std::vector<Token>;

// Normalized type text of `toks[b, e)`: drops const, &, &in/&out/&inout, @, @+ and (when
// `drop_name`) a trailing parameter name; joins the rest without blanks.
std::string normalize_tokens(const TokenSpan& toks, std::size_t b, std::size_t e, bool drop_name) {
  std::vector<std::string_view> kept;
  for (std::size_t i = b; i < e; ++i) {
    const Token& t = toks[i];
    if (t.is_word("const") || t.is('&') || t.is('@')) continue;
    if (i > b && (t.is_word("in") || t.is_word("out") || t.is_word("inout")) && toks[i - 1].is('&')) continue;
    if (i > b && t.is('+') && toks[i - 1].is('@')) continue;
    kept.push_back(t.text);
  }
  if (drop_name && kept.size() >= 2 && ident_start(static_cast<unsigned char>(kept.back().front())) &&
      kept[kept.size() - 2] != "::")
    kept.pop_back();
  std::string out;
  for (auto k : kept) out += k;
  return out;
}

bool declaration_keyword(const Token& t) {
  static constexpr std::string_view kWords[] = {"namespace", "class",  "interface", "enum",  "funcdef",
                                                "typedef",   "import", "mixin",     "using", "return",
                                                "if",        "while",  "for"};
  if (t.kind != Tok::ident) return false;
  return std::find(std::begin(kWords), std::end(kWords), t.text) != std::end(kWords);
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view file, bool server, std::vector<ScriptFunction>& out)
      : lx_(text), file_(file), server_(server), out_(out) {}

  void run() {
    for (Token t = next(); t.kind != Tok::end; t = next()) {
      if (t.is('[')) {
        Token u = next();
        if (u.is('[')) {
          read_attribute();
          continue;
        }
        push(t);
        back_ = u;
        has_back_ = true;
        continue;
      }
      if (t.is(';')) {
        end_statement();
      } else if (t.is('{')) {
        open_brace();
      } else if (t.is('}')) {
        if (!ns_.empty()) ns_.pop_back();
        end_statement();
      } else {
        push(t);
      }
    }
  }

 private:
  Token next() {
    if (has_back_) {
      has_back_ = false;
      return back_;
    }
    return lx_.next();
  }

  void push(const Token& t) {
    if (t.is('(')) ++paren_;
    if (t.is(')') && paren_ > 0) --paren_;
    if (t.is('=') && paren_ == 0) assigned_ = true;
    stmt_.push_back(t);
  }

  void end_statement() {
    stmt_.clear();
    attrs_.clear();
    paren_ = 0;
    assigned_ = false;
  }

  // After `[[`: attribute names (first identifier of each comma-separated item) up to `]]`.
  void read_attribute() {
    int depth = 0;
    bool expect_name = true;
    for (Token t = next(); t.kind != Tok::end; t = next()) {
      if (t.is('{') || t.is('}') || t.is(';')) {  // malformed: let the main loop see it
        back_ = t;
        has_back_ = true;
        return;
      }
      if (t.is(']') && depth == 0) {
        Token u = next();
        if (u.is(']')) return;
        back_ = u;
        has_back_ = true;
        continue;
      }
      if (t.is('('))
        ++depth;
      else if (t.is(')') && depth > 0)
        --depth;
      else if (t.is(',') && depth == 0)
        expect_name = true;
      else if (expect_name && depth == 0 && t.kind == Tok::ident) {
        attrs_.emplace_back(t.text);
        expect_name = false;
      }
    }
  }

  // Skips a `{ ... }` block whose `{` was just read.
  void skip_block() {
    std::size_t depth = 1;
    for (Token t = next(); t.kind != Tok::end; t = next()) {
      if (t.is('{'))
        ++depth;
      else if (t.is('}') && --depth == 0)
        return;
    }
  }

  void open_brace() {
    if (!stmt_.empty() && stmt_[0].is_word("namespace")) {
      std::string name;
      for (std::size_t i = 1; i < stmt_.size(); ++i)
        if (stmt_[i].kind == Tok::ident || stmt_[i].kind == Tok::scope) name += stmt_[i].text;
      end_statement();
      if (ns_.size() >= kMaxScriptNamespaceDepth)
        skip_block();
      else
        ns_.push_back(std::move(name));
      return;
    }
    if (assigned_) {  // `int[] a = {1, 2};`: an initializer, the statement goes on
      skip_block();
      return;
    }
    try_function();
    skip_block();
    end_statement();
  }

  void try_function() {
    const TokenSpan& s = stmt_;
    std::size_t p = 0;
    while (p < s.size() && !s[p].is('(')) {
      if (declaration_keyword(s[p])) return;
      ++p;
    }
    if (p < 2 || p >= s.size() || s[p - 1].kind != Tok::ident || s[p - 2].kind == Tok::scope) return;
    std::size_t depth = 0, q = p;
    for (; q < s.size(); ++q) {
      if (s[q].is('('))
        ++depth;
      else if (s[q].is(')') && --depth == 0)
        break;
    }
    if (q >= s.size()) return;
    for (std::size_t i = q + 1; i < s.size(); ++i)
      if (s[i].kind != Tok::ident) return;  // `const`, `override`, `final`, `property` only
    std::size_t rb = 0;
    while (rb < p - 1 && (s[rb].is_word("shared") || s[rb].is_word("external") || s[rb].is_word("private") ||
                          s[rb].is_word("protected")))
      ++rb;
    ScriptFunction f;
    f.return_type = normalize_tokens(s, rb, p - 1, false);
    if (f.return_type.empty()) return;
    for (const auto& n : ns_) f.qualified_name += n + "::";
    f.qualified_name += s[p - 1].text;
    f.line = s[p - 1].line;
    f.file = std::string(file_);
    f.server = server_;
    f.attributes = attrs_;
    // Parameters: split on top-level commas; a default value (`= ...`) is not part of the type.
    std::size_t b = p + 1;
    int nest = 0;
    bool in_default = false;
    std::size_t type_end = b;
    for (std::size_t i = p + 1; i <= q; ++i) {
      const Token& t = s[i];
      const bool close = i == q || (t.is(',') && nest == 0);
      if (close) {
        const std::size_t e = in_default ? type_end : i;
        if (e > b || i < q || !f.params.empty()) f.params.push_back(normalize_tokens(s, b, e, true));
        b = i + 1;
        nest = 0;
        in_default = false;
        continue;
      }
      if (t.is('(') || t.is('[') || t.is('{') || (!in_default && t.is('<')))
        ++nest;
      else if ((t.is(')') || t.is(']') || t.is('}') || (!in_default && t.is('>'))) && nest > 0)
        --nest;
      else if (t.is('=') && nest == 0 && !in_default) {
        in_default = true;
        type_end = i;
      }
    }
    if (f.params.size() == 1 && (f.params[0] == "void" || f.params[0].empty())) f.params.clear();
    out_.push_back(std::move(f));
  }

  Lexer lx_;
  std::string_view file_;
  bool server_;
  std::vector<ScriptFunction>& out_;
  std::vector<std::string> ns_;
  TokenSpan stmt_;
  std::vector<std::string> attrs_;
  std::size_t paren_ = 0;
  bool assigned_ = false;
  Token back_;
  bool has_back_ = false;
};

// `// FOS Client Mapper Sort 5` on the first line: server unless the header names neither
// Server nor Common.
bool server_side(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const std::string_view first = text.substr(0, text.find('\n'));
  std::size_t i = 0;
  auto word = [&]() {
    while (i < first.size() && (first[i] == ' ' || first[i] == '\t' || first[i] == '\r')) ++i;
    const std::size_t b = i;
    while (i < first.size() && first[i] != ' ' && first[i] != '\t' && first[i] != '\r') ++i;
    return first.substr(b, i - b);
  };
  std::string_view w = word();
  if (w == "//")
    w = word();
  else if (w.substr(0, 2) == "//")
    w.remove_prefix(2);
  else
    return true;
  if (!core::iequals_ascii(w, "FOS")) return true;
  for (w = word(); !w.empty(); w = word())
    if (core::iequals_ascii(w, "Server") || core::iequals_ascii(w, "Common")) return true;
  return false;
}

}  // namespace

std::string ScriptFunction::signature() const {
  const auto sep = qualified_name.rfind("::");
  const std::string_view name =
      sep == std::string::npos ? std::string_view(qualified_name) : std::string_view(qualified_name).substr(sep + 2);
  return fmt::format("{} {}({})", return_type, name, fmt::join(params, ", "));
}

bool ScriptFunction::has_attribute(std::string_view name) const {
  return std::find(attributes.begin(), attributes.end(), name) != attributes.end();
}

void ScriptIndex::add_source(std::string_view text, std::string_view file) {
  std::vector<ScriptFunction> found;
  Parser(text, file, server_side(text), found).run();
  ++files_;
  functions_ += found.size();
  for (auto& f : found) by_name_[f.qualified_name].push_back(std::move(f));
}

const std::vector<ScriptFunction>* ScriptIndex::find(std::string_view qualified_name) const {
  auto it = by_name_.find(std::string(qualified_name));
  return it == by_name_.end() ? nullptr : &it->second;
}

ScriptIndex ScriptIndex::scan(const std::vector<fs::path>& paths, core::Diagnostics& notes) {
  std::vector<fs::path> files;
  for (const auto& root : paths) {
    std::error_code ec;
    if (fs::is_regular_file(root, ec)) {
      files.push_back(root);
      continue;
    }
    if (!fs::is_directory(root, ec)) {
      notes.push_back(core::Diagnostic::error("io.open", "script path is neither a file nor a directory")
                          .of(root.generic_string()));
      continue;
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code type_ec;
      if (it->is_regular_file(type_ec) && core::iequals_ascii(it->path().extension().string(), ".fos"))
        files.push_back(it->path());
    }
    if (ec) notes.push_back(core::Diagnostic::error("io.read", ec.message()).of(root.generic_string()));
  }
  std::sort(files.begin(), files.end());
  ScriptIndex index;
  for (const auto& f : files) {
    auto text = core::read_text_file(f);
    if (!text) {
      notes.push_back(text.error());
      continue;
    }
    index.add_source(*text, f.generic_string());
  }
  return index;
}

std::string normalize_script_type(std::string_view declaration) {
  Lexer lx(declaration);
  TokenSpan toks;
  for (Token t = lx.next(); t.kind != Tok::end; t = lx.next()) toks.push_back(t);
  return normalize_tokens(toks, 0, toks.size(), true);
}

std::string ScriptSignature::text() const {
  return fmt::format("{}({})", return_type, fmt::join(params, ", "));
}

const ScriptSignature* script_signature(std::string_view func_type) {
  static const std::map<std::string_view, ScriptSignature, std::less<>> table = {
      {"MapInit", {"void", {"Map", "bool"}, ""}},
      {"LocationInit", {"void", {"Location", "bool"}, ""}},
      {"CritterInit", {"void", {"Critter", "bool"}, ""}},
      {"ItemInit", {"void", {"Item", "bool"}, ""}},
      {"ItemStatic", {"bool", {"Critter", "StaticItem", "Item?", "any"}, "ItemStatic"}},
      {"ItemTrigger", {"void", {"Critter", "StaticItem", "bool", "mdir"}, "ItemTrigger"}},
  };
  auto it = table.find(func_type);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace sortie::fomap
