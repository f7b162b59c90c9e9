#include "sortie/core/diagnostic.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace sortie::core {

std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "error";
}

std::string hex_offset(std::uint64_t offset) {
  return fmt::format("0x{:x}", offset);
}

Diagnostic Diagnostic::error(std::string code, std::string message) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.severity = Severity::error;
  return d;
}

Diagnostic Diagnostic::warning(std::string code, std::string message) {
  Diagnostic d = error(std::move(code), std::move(message));
  d.severity = Severity::warning;
  return d;
}

Diagnostic Diagnostic::within(std::string_view outer_field) && {
  if (outer_field.empty()) return std::move(*this);
  if (field.empty()) {
    field = std::string(outer_field);
  } else if (field.front() == '[') {
    field = std::string(outer_field) + field;
  } else {
    field = std::string(outer_field) + "." + field;
  }
  return std::move(*this);
}

std::string Diagnostic::to_string() const {
  std::string out;
  if (!file.empty()) out += file + ": ";
  if (offset) out += hex_offset(*offset) + ": ";
  if (!field.empty()) out += field + ": ";
  out += message;
  if (!expected.empty() || !found.empty()) {
    out += " (";
    if (!expected.empty()) out += "expected " + expected;
    if (!expected.empty() && !found.empty()) out += ", ";
    if (!found.empty()) out += "found " + found;
    out += ")";
  }
  out += " [" + code + "]";
  return out;
}

nlohmann::json Diagnostic::to_json() const {
  nlohmann::json j;
  j["code"] = code;
  j["severity"] = std::string(sortie::core::to_string(severity));
  j["message"] = message;
  if (!file.empty()) j["file"] = file;
  if (offset) {
    j["offset"] = *offset;
    j["offset_hex"] = hex_offset(*offset);
  }
  if (!field.empty()) j["field"] = field;
  if (!expected.empty()) j["expected"] = expected;
  if (!found.empty()) j["found"] = found;
  return j;
}

}  // namespace sortie::core
