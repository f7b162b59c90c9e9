#pragma once
// `.fml` formula exports (spec §20.1, seed 001: "a text export of a formula set"), one beside
// every `.scr` package in MISSIONS\SCRIPTS\ (58 in Part 1, 59 in Part 2). Nothing of their grammar
// is known: the seed says only that they are text. So the reader structures exactly that and no
// more: the file is split at '\n' into lines kept byte for byte (a '\r' before the '\n' stays in
// the line and is reported as the line's ending), and each line has a view of its code (text
// before the first "//", trimmed of space, \t, \r, \f) and its comment (from the "//"). The
// bundle loader (libs/assets) keeps the file with its `.scr`; the script runtime does not read
// formulas (their evaluation is not recovered; the five evaluator tags of seed 001 are traced).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/limits.hpp"

namespace sortie::iron3d {

struct FmlLine {
  std::string_view code;     // before the first "//", trimmed
  std::string_view comment;  // from the first "//" to the end of the line (without '\r')
  bool crlf = false;         // the line ended with "\r\n"
};

struct Fml {
  // Raw lines split at '\n' (each may still hold '\r'); joined with '\n' they are the file.
  std::vector<std::string> lines;
  [[nodiscard]] FmlLine line(std::size_t index) const;  // a view into lines[index]
  bool operator==(const Fml&) const = default;
};

struct FmlSummary {
  std::size_t lines = 0;
  std::size_t blank = 0;    // nothing but whitespace
  std::size_t comment = 0;  // a comment and no code
  std::size_t code = 0;     // code, with or without a comment
  std::size_t crlf = 0;     // lines ending in "\r\n"
};
FmlSummary fml_summary(const Fml& fml);

// Codes: fml.limit (more than 16 MiB or 1,048,576 lines). Warnings (when `warnings` is given):
// fml.control (the text holds a NUL or another control byte than \t, \r, \n, \f; kept as is).
core::Result<Fml> read_fml(core::ByteView data, const ReadOptions& options = {}, core::Diagnostics* warnings = nullptr);
core::Bytes write_fml(const Fml& fml);

core::Json fml_json(const Fml& fml);
FormatInfo fml_format_info();

}  // namespace sortie::iron3d
