#pragma once
// Private helpers shared by the bake and materialize sources.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/fomap/bake.hpp"
#include "sortie/fomap/properties.hpp"
#include "sortie/fomap/property_blob.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap::bake_detail {

bool is_one_byte_enum(std::string_view name);
// Bytes of one plain value (0 for string-like kinds).
std::uint32_t scalar_size(ScalarKind kind, std::string_view enum_name);
// Bytes of one field of a value type (mpos: 2), else scalar_size.
std::uint32_t field_size(ScalarKind kind, std::string_view enum_name);
bool is_plain(const PropertyType& t);
bool has_flag(const PropertyInfo& info, std::string_view flag);

// Encodes one single value into its plain POD slot (nullptr: the zero value). Hashed strings
// (hstring, proto_ref) are appended to `strings` when it is set.
void store_plain(const Registrar& reg, const Registrar::Slot& slot, const ScalarValue* value, core::Bytes& pod,
                 std::vector<std::string>* strings);
// store_value for an array of two-field 16-bit values (mpos[] ...) straight from its text when
// read_int16_pairs accepts it (same bytes as parse_value + store_value); false otherwise.
bool store_int16_pairs(const PropertyType& type, std::string_view text, std::vector<std::int16_t>& scratch,
                       core::Bytes& complex_out);
// Encodes a parsed value: plain values into `pod`, complex ones into `complex_out`.
void store_value(const Registrar& reg, const Registrar::Slot& slot, const PropertyValue& value, core::Bytes& pod,
                 core::Bytes& complex_out, std::vector<std::string>* strings);

}  // namespace sortie::fomap::bake_detail
