#include "sortie/assets/game_path.hpp"

#include <fmt/format.h>

#include "sortie/core/text.hpp"

namespace sortie::assets {
namespace {

core::Diagnostic path_error(std::string code, std::string message, std::string_view raw) {
  return core::Diagnostic::error(std::move(code), std::move(message))
      .expect("a relative game path", fmt::format("'{}'", raw));
}

bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

std::vector<std::string_view> GamePath::segments() const {
  std::vector<std::string_view> out;
  std::string_view rest = path;
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    out.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return out;
}

std::string_view GamePath::file_name() const {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string_view(path) : std::string_view(path).substr(slash + 1);
}

std::string_view GamePath::parent() const {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? std::string_view() : std::string_view(path).substr(0, slash);
}

core::Result<GamePath> normalize_path(std::string_view raw, PathPolicy policy) {
  if (raw.empty()) return core::fail(path_error("path.empty", "empty path", raw));
  if (raw.find('\0') != std::string_view::npos)
    return core::fail(path_error("path.embedded_nul", "path contains a NUL byte", raw));
  if (raw.front() == '/' || raw.front() == '\\' || (raw.size() >= 2 && is_ascii_letter(raw[0]) && raw[1] == ':'))
    return core::fail(path_error("path.absolute", "absolute path (game paths are relative to the game root)", raw));
  GamePath out;
  out.original = std::string(raw);
  std::size_t start = 0;
  while (start <= raw.size()) {
    std::size_t end = start;
    while (end < raw.size() && raw[end] != '/' && raw[end] != '\\') ++end;
    const std::string_view seg = raw.substr(start, end - start);
    if (seg.empty() || seg == ".") {
      if (policy == PathPolicy::strict_legacy)
        return core::fail(path_error("path.parent_traversal", "empty or '.' path segment", raw));
    } else if (seg == "..") {
      return core::fail(path_error("path.parent_traversal", "'..' path segment", raw));
    } else if (policy == PathPolicy::strict_legacy && seg.find(':') != std::string_view::npos) {
      return core::fail(path_error("path.absolute", "':' inside a path segment", raw));
    } else {
      if (!out.path.empty()) out.path.push_back('/');
      out.path.append(seg);
    }
    if (end == raw.size()) break;
    start = end + 1;
  }
  if (out.path.empty()) return core::fail(path_error("path.empty", "no path segment left", raw));
  out.key = core::ascii_upper(out.path);
  return out;
}

core::Result<GamePath> join_path(const GamePath& parent, std::string_view tail, PathPolicy policy) {
  if (parent.path.empty()) return normalize_path(tail, policy);
  return normalize_path(parent.path + "/" + std::string(tail), policy);
}

}  // namespace sortie::assets
