#pragma once
// JSON output helpers (nlohmann-json). Object keys are sorted, so output is stable.
#include <nlohmann/json.hpp>
#include <string>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"

namespace sortie::core {

using Json = nlohmann::json;

// Text field from legacy bytes: {"text": utf8} or, when the bytes do not survive decoding,
// {"text": utf8-with-replacements, "raw_hex": "..."}; always lossless together.
Json legacy_text_json(std::string_view cp1251_bytes);
// Same for a fixed field: adds "raw_hex" of the whole field when there are bytes after the NUL.
Json fixed_string_json(const FixedString& s);

Json diagnostics_json(const Diagnostics& diagnostics);

// Pretty printing with a trailing newline, 2-space indent; UTF-8 errors replaced, never thrown.
std::string dump_json(const Json& j, bool pretty = true);

}  // namespace sortie::core
