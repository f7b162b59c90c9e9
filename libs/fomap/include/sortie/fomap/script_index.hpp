#pragma once
// Index of AngelScript sources (`*.fos`) for the lint's script-function check (spec/fomap.md
// §5.4 script properties, §8.1, §12.1, §13.3): free functions by qualified name
// (`Namespace::Inner::Func`) with their return type, parameter types and `[[attributes]]`.
//
// The indexer is a tolerant declaration scanner, not a compiler: it skips comments, strings
// (`"..."`, `'...'`, `"""..."""`), preprocessor lines and every function / class / enum body by
// brace matching, and reads only namespace-level declarations. It is linear in the input and
// never recurses, so arbitrary bytes cannot make it crash or hang. Normalized types drop
// `const`, `&`, `&in/&out/&inout`, handle markers `@`/`@+`, parameter names and default
// values; they keep `?` (nullable), `[]`, template arguments and namespace qualifiers:
// `const Item ? item = null` -> `Item?`, `array<int>@ &out list` -> `array<int>`.
//
// Sides: a `// FOS <sides...>` header on the first line (`// FOS Common Sort -10`,
// `// FOS Client Mapper`) is honoured: only files without a header or whose header names
// `Server` or `Common` are server scripts. `#if` blocks are not evaluated.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::fomap {

struct ScriptFunction {
  std::string qualified_name;           // "Trader::TraderInit" ("Func" in the global namespace)
  std::string return_type;              // normalized ("void", "bool", "Item?")
  std::vector<std::string> params;      // normalized parameter types
  std::vector<std::string> attributes;  // attribute names in `[[...]]` before the function
  std::string file;
  std::uint32_t line = 0;  // line of the function name
  bool server = true;      // false: the file's `// FOS` header excludes the server

  // "bool Mg(Critter, StaticItem, Item?, any)"
  [[nodiscard]] std::string signature() const;
  [[nodiscard]] bool has_attribute(std::string_view name) const;
};

class ScriptIndex {
 public:
  // Indexes every `*.fos` file below each path (a path that is a file is indexed as is), in
  // sorted path order. Unreadable paths give `io.*` diagnostics in `notes`.
  static ScriptIndex scan(const std::vector<std::filesystem::path>& paths, core::Diagnostics& notes);

  // Indexes one source text.
  void add_source(std::string_view text, std::string_view file);

  // Every function (all overloads, all sides) with this qualified name, in index order.
  [[nodiscard]] const std::vector<ScriptFunction>* find(std::string_view qualified_name) const;

  // Qualified name -> overloads (unordered; for iteration in tests and the fuzz target).
  [[nodiscard]] const std::unordered_map<std::string, std::vector<ScriptFunction>>& all() const { return by_name_; }
  [[nodiscard]] std::size_t size() const { return functions_; }
  [[nodiscard]] std::size_t files() const { return files_; }

 private:
  std::unordered_map<std::string, std::vector<ScriptFunction>> by_name_;
  std::size_t functions_ = 0;
  std::size_t files_ = 0;
};

// Normalizes the tokens of a type as written ("const Item ? item" -> "Item?"); exposed for tests.
std::string normalize_script_type(std::string_view declaration);

// The engine's expected function type of a ScriptFuncType tag (§5.4): `MapInit` ->
// void(Map, bool), `ItemStatic` -> bool(Critter, StaticItem, Item?, any) + [[ItemStatic]] ...
struct ScriptSignature {
  std::string_view return_type;
  std::vector<std::string_view> params;
  std::string_view attribute;              // required attribute ("" = none)
  [[nodiscard]] std::string text() const;  // "void(Map, bool)"
};
// nullptr for a tag this catalog does not know (only existence is checked then).
const ScriptSignature* script_signature(std::string_view func_type);

}  // namespace sortie::fomap
