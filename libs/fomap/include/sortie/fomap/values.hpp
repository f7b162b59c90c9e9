#pragma once
// Property value text <-> typed value, the engine's way (spec/fomap.md §5.2, §5.3).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sortie/core/diagnostic.hpp"
#include "sortie/fomap/properties.hpp"

namespace sortie::fomap {

// One primitive or fixed value type.
struct ScalarValue {
  // Integer fields: int*/uint*/bool (0/1)/enum value/ident/ucolor/mdir/time use ints[0];
  // mpos/msize/ipos16/ipos/isize use ints[0..1]; irect uses ints[0..3].
  std::array<std::int64_t, 4> ints{};
  double real = 0;   // float32 / float64
  std::string text;  // string (decoded bytes), hstring / proto_ref / any text, enum value name

  friend bool operator==(const ScalarValue&, const ScalarValue&) = default;
};

struct PropertyValue {
  // single: exactly one element; array: every element in order; dict: unused.
  std::vector<ScalarValue> elements;
  // dict: (key, values) in text order; values has one element unless the type is a dict of arrays.
  std::vector<std::pair<ScalarValue, std::vector<ScalarValue>>> entries;

  friend bool operator==(const PropertyValue&, const PropertyValue&) = default;
};

// Token reader of §5.2 (never fails; unterminated quote runs to the end). Tokens are raw
// (quoted tokens without their quotes but still escaped). `quoted[i]` tells whether token i was quoted.
struct Tokens {
  std::vector<std::string_view> tokens;
  std::vector<bool> quoted;
};
Tokens tokenize_value(std::string_view text);
// True when the token reader ends inside a quoted token (the text opens a quote it never closes).
bool ends_in_open_quote(std::string_view text);

// String decoder of §5.2. Error codes: `fomap.value.string_quote`, `fomap.value.string_escape`.
core::Result<std::string> decode_string(std::string_view text);
// Element coding of §5.3 (quote when empty or containing space, tab, CR, LF, `\` or `"`).
std::string encode_element(std::string_view text);

// Lenient `$Id` parse (`strex::to_int64`, §3.5). Never fails; garbage gives 0.
std::int64_t lenient_int64(std::string_view text);
// Strict decimal `$Id` (strict gate): optional '-' then digits only, fits int64.
std::optional<std::int64_t> strict_decimal_int64(std::string_view text);

// Parses `text` as a value of `type`. Error codes `fomap.value.*` with the expected form.
// Enum names go through `catalog` migration rules; proto references are not resolved here.
core::Result<PropertyValue> parse_value(const PropertyType& type, std::string_view text,
                                        const PropertyCatalog& catalog);

// A single (non-array, non-dict) value without the PropertyValue wrapper.
core::Result<ScalarValue> parse_single_value(const PropertyType& type, std::string_view text,
                                             const PropertyCatalog& catalog);

// Fast reader for the common shape of two-field 16-bit value arrays (mpos[], msize[], ipos16[];
// the MultihexMesh of real maps): blank-separated `"x y"` tokens with one space inside, plain
// decimal fields in -32768..32767, a blank or the end after each closing quote. Replaces `out`
// with x, y per element and returns true; false for any other shape, which parse_value judges
// (a text accepted here parses to the same values there).
bool read_int16_pairs(std::string_view text, std::vector<std::int16_t>& out);

// Same checks as parse_value without building the value (lint's fast path for single values).
core::Status validate_value(const PropertyType& type, std::string_view text, const PropertyCatalog& catalog);

// The Mapper's value -> text (§5.3), including top-level wrapping/unwrapping. Unknown kinds
// (ScalarKind::unknown) format their stored text verbatim.
std::string format_value(const PropertyType& type, const PropertyValue& value, const PropertyCatalog& catalog);

// The zero / empty value of a type (what a property is when neither proto nor placement sets it).
PropertyValue default_value(const PropertyType& type, const PropertyCatalog& catalog);

// True when the value equals the type's default (the Mapper omits such map header values).
bool is_default_value(const PropertyType& type, const PropertyValue& value, const PropertyCatalog& catalog);

// Convenience: parse then format (canonical text of one value). Unknown kinds: trimmed input.
core::Result<std::string> canonical_value_text(const PropertyType& type, std::string_view text,
                                               const PropertyCatalog& catalog);

}  // namespace sortie::fomap
