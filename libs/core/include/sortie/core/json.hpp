#pragma once
// JSON output helpers (nlohmann-json). Object keys are sorted, so output is stable.
#include <nlohmann/json.hpp>
#include <string>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/math.hpp"

namespace sortie::core {

using Json = nlohmann::json;

// Text field from legacy bytes: {"text": utf8} or, when the bytes do not survive decoding,
// {"text": utf8-with-replacements, "raw_hex": "..."}; always lossless together.
Json legacy_text_json(std::string_view cp1251_bytes);
// Same for a fixed field: adds "raw_hex" of the whole field when there are bytes after the NUL.
Json fixed_string_json(const FixedString& s);

Json diagnostics_json(const Diagnostics& diagnostics);

// A float as data that reads back to the same bits: a finite value is a JSON number (the
// shortest text that parses back to it); NaN and the infinities are "f32:<8 hex digits>" /
// "f64:<16 hex digits>" of the bit pattern (JSON has no number for them).
Json f32_json(float v);
Json f64_json(double v);
// Text that may not be UTF-8 (a script's string, a record's name): the string when it is valid
// UTF-8, else {"hex": its bytes}; JSON output never replaces a byte of it.
Json bytes_text_json(std::string_view bytes);
bool is_valid_utf8(std::string_view bytes);

// Sequences of the above: [x, y] / [x, y, z] (positions, orientations).
Json vec2_json(const Vec2& v);
Json vec3_json(const Vec3& v);

// Pretty printing with a trailing newline, 2-space indent; UTF-8 errors replaced, never thrown.
std::string dump_json(const Json& j, bool pretty = true);

}  // namespace sortie::core
