#include "sortie/iron3d/archive_files.hpp"

#include <fmt/format.h>

#include <array>
#include <filesystem>
#include <unordered_set>

#include "sortie/core/text.hpp"

namespace sortie::iron3d {

namespace {

bool is_device_name(std::string_view stem) {
  static constexpr std::array<std::string_view, 4> kPlain = {"CON", "PRN", "AUX", "NUL"};
  const std::string up = core::ascii_upper(stem);
  for (auto d : kPlain)
    if (up == d) return true;
  return up.size() == 4 && (up.starts_with("COM") || up.starts_with("LPT")) && up[3] >= '1' && up[3] <= '9';
}

std::string sanitize(std::string_view name) {
  std::string s;
  s.reserve(name.size());
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    const bool bad = u < 0x20 || u == 0x7f || c == '/' || c == '\\' || c == ':' || c == '*' || c == '?' || c == '"' ||
                     c == '<' || c == '>' || c == '|';
    s.push_back(bad ? '_' : c);
  }
  // Leading/trailing spaces and dots are dropped or misread by some file systems.
  for (std::size_t i = 0; i < s.size() && (s[i] == ' ' || s[i] == '.'); ++i) s[i] = '_';
  for (std::size_t i = s.size(); i > 0 && (s[i - 1] == ' ' || s[i - 1] == '.'); --i) s[i - 1] = '_';
  if (s.empty()) s.push_back('_');
  const std::string_view stem = std::string_view(s).substr(0, s.find('.'));
  if (is_device_name(stem)) {
    std::string prefixed(1, '_');
    prefixed.append(s);
    s = std::move(prefixed);
  }
  return s;
}

}  // namespace

std::vector<std::string> archive_safe_file_names(std::span<const std::string> names) {
  std::vector<std::string> out;
  out.reserve(names.size());
  std::unordered_set<std::string> used;  // ASCII-upper keys
  used.insert(core::ascii_upper(kArchiveManifestName));
  used.insert(core::ascii_upper(kArchiveGapDir));
  for (const std::string& name : names) {
    std::string base = sanitize(name);
    std::string candidate = base;
    const auto dot = base.rfind('.');
    const std::string stem = dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
    const std::string ext = dot == std::string::npos || dot == 0 ? std::string() : base.substr(dot);
    for (int n = 1; used.contains(core::ascii_upper(candidate)); ++n) candidate = fmt::format("{}~{}{}", stem, n, ext);
    used.insert(core::ascii_upper(candidate));
    out.push_back(std::move(candidate));
  }
  return out;
}

std::string archive_default_extract_dir(std::string_view archive_path) {
  const std::filesystem::path p(archive_path);
  std::string ext = p.extension().string();
  if (!ext.empty()) ext[0] = '_';
  return p.stem().string() + ext;
}

}  // namespace sortie::iron3d
