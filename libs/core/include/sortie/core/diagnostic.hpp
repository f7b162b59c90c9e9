#pragma once
// Diagnostics and Result<T>: the error currency of every sortie reader.
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>
#include <vector>

namespace sortie::core {

enum class Severity : std::uint8_t { note, warning, error };

std::string_view to_string(Severity severity);

// One finding about an input. `code` is stable (e.g. "nres.magic"), the rest locates it.
struct Diagnostic {
  std::string code;
  Severity severity = Severity::error;
  std::string message;                  // what is wrong, in words
  std::string file;                     // file (or archive:entry) the finding is about
  std::optional<std::uint64_t> offset;  // byte offset inside `file`
  std::string field;                    // field path, e.g. "objects[12].properties[3].name"
  std::string expected;                 // what the format allows
  std::string found;                    // what the input holds

  // "file: 0x1a4: field: message (expected X, found Y)"
  [[nodiscard]] std::string to_string() const;
  [[nodiscard]] nlohmann::json to_json() const;

  // Builder-style helpers, so a reader can write
  //   return fail(Diagnostic::error("tma.clan.mode_unknown", "unknown clan mode").at(off).in("clans[2].mode"));
  static Diagnostic error(std::string code, std::string message);
  static Diagnostic warning(std::string code, std::string message);
  Diagnostic& at(std::uint64_t byte_offset) & {
    offset = byte_offset;
    return *this;
  }
  Diagnostic at(std::uint64_t byte_offset) && {
    offset = byte_offset;
    return std::move(*this);
  }
  Diagnostic& in(std::string field_path) & {
    field = std::move(field_path);
    return *this;
  }
  Diagnostic in(std::string field_path) && {
    field = std::move(field_path);
    return std::move(*this);
  }
  Diagnostic& of(std::string file_name) & {
    file = std::move(file_name);
    return *this;
  }
  Diagnostic of(std::string file_name) && {
    file = std::move(file_name);
    return std::move(*this);
  }
  Diagnostic& expect(std::string exp, std::string fnd) & {
    expected = std::move(exp);
    found = std::move(fnd);
    return *this;
  }
  Diagnostic expect(std::string exp, std::string fnd) && {
    expected = std::move(exp);
    found = std::move(fnd);
    return std::move(*this);
  }
  // Prefixes the field path: "entries[3]" + ".name" -> "entries[3].name".
  Diagnostic within(std::string_view outer_field) &&;
};

template <class T>
using Result = tl::expected<T, Diagnostic>;
using Status = Result<void>;

inline tl::unexpected<Diagnostic> fail(Diagnostic diagnostic) {
  return tl::unexpected<Diagnostic>(std::move(diagnostic));
}

// A list of non-fatal findings gathered by a reader in compatible mode, or by a checker.
using Diagnostics = std::vector<Diagnostic>;

// Reader profile: strict rejects anything outside the known contract; compatible keeps
// the raw value and reports a warning. Nothing is ever fixed silently.
enum class Profile : std::uint8_t { strict, compatible };

std::string hex_offset(std::uint64_t offset);  // "0x1a4"

}  // namespace sortie::core

#define SORTIE_CONCAT_INNER(a, b) a##b
#define SORTIE_CONCAT(a, b) SORTIE_CONCAT_INNER(a, b)

// SORTIE_TRY(auto x, reader.u32());  -- declares x or returns the error from the enclosing function.
#define SORTIE_TRY(decl, expr) SORTIE_TRY_IMPL(decl, expr, SORTIE_CONCAT(sortie_try_, __LINE__))
#define SORTIE_TRY_IMPL(decl, expr, tmp)                                                 \
  auto tmp = (expr);                                                                     \
  if (!tmp) return ::tl::unexpected<::sortie::core::Diagnostic>(std::move(tmp).error()); \
  decl = std::move(*tmp)

// SORTIE_CHECK(status_expr);  -- returns the error of a Result<void> / Result<T> from the enclosing function.
#define SORTIE_CHECK(expr) SORTIE_CHECK_IMPL(expr, SORTIE_CONCAT(sortie_chk_, __LINE__))
#define SORTIE_CHECK_IMPL(expr, tmp)                                                       \
  do {                                                                                     \
    auto tmp = (expr);                                                                     \
    if (!tmp) return ::tl::unexpected<::sortie::core::Diagnostic>(std::move(tmp).error()); \
  } while (false)
