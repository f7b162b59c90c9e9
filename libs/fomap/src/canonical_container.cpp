// Whole containers (spec/fomap.md §9.5): the Mapper splice of multi-map files, the fixed-point
// check, and formatting a file's text (format_map, which writes one map, is in canonical.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "sortie/fomap/canonical.hpp"

namespace sortie::fomap {

using core::Diagnostic;
using core::fail;

namespace {

// The Mapper splice's view of a multi-map file (§9.5 step 4): ranges cut at every line that
// trims to `[...]`, each with its owner. Shared by the splice and by the check that refuses
// files the splice would cut differently from the parser.
struct SpliceRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string owner;
  bool anchor = false;  // a top-level section (its owner comes from its own `$Name` line)
};

std::vector<SpliceRange> splice_ranges(std::string_view original, std::string_view stem) {
  const auto trim = trim_line;  // the splice trims lines with the line-assembly blanks
  std::vector<std::size_t> starts;
  std::size_t pos = 0;
  while (pos < original.size()) {
    const std::size_t nl = original.find('\n', pos);
    const std::string_view line =
        trim(original.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (!line.empty() && line.front() == '[' && line.find(']') != std::string_view::npos) starts.push_back(pos);
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  std::vector<SpliceRange> ranges;
  std::string context(stem);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    SpliceRange r{starts[i], i + 1 < starts.size() ? starts[i + 1] : original.size(), {}, false};
    const std::string_view body = original.substr(r.begin, r.end - r.begin);
    const std::size_t nl = body.find('\n');
    const std::string_view header = trim(body.substr(0, nl));
    const std::string_view name = trim(header.substr(1, header.find(']') - 1));
    const std::size_t slash = name.find('/');
    if (slash == std::string_view::npos) {
      std::string owner(stem);
      std::size_t p2 = nl == std::string_view::npos ? body.size() : nl + 1;
      while (p2 < body.size()) {
        const std::size_t n2 = body.find('\n', p2);
        const std::string_view l =
            trim(body.substr(p2, n2 == std::string_view::npos ? std::string_view::npos : n2 - p2));
        if (l.substr(0, 5) == "$Name") {
          const std::string_view rest = trim(l.substr(5));
          if (!rest.empty() && rest.front() == '=') {
            owner = std::string(trim(rest.substr(1)));
            break;
          }
        }
        if (n2 == std::string_view::npos) break;
        p2 = n2 + 1;
      }
      context = owner;
      r.owner = owner;
      r.anchor = true;
    } else if (name.substr(0, slash) == "$Name") {
      r.owner = context;
    } else {
      r.owner = std::string(name.substr(0, slash));
    }
    ranges.push_back(std::move(r));
  }
  return ranges;
}

}  // namespace

std::string splice_map(std::string_view original, std::string_view stem, std::string_view map_name,
                       std::string_view block) {
  const std::vector<SpliceRange> ranges = splice_ranges(original, stem);
  std::string out(original.substr(0, ranges.empty() ? original.size() : ranges.front().begin));
  bool inserted = false;
  for (const auto& r : ranges) {
    if (r.owner == map_name) {
      if (!inserted) {
        out += block;
        inserted = true;
      }
      continue;
    }
    out += original.substr(r.begin, r.end - r.begin);
  }
  if (!inserted) out += block;
  return out;
}

namespace {

// The splice ranges of a multi-map file, after checking that the Mapper splice sees the same
// maps as the parser.
core::Result<std::vector<SpliceRange>> checked_splice_ranges(const MapContainer& container) {
  // The splice identifies blocks by their `$Name` line; it is only safe when every anchor has
  // exactly one plain, unique, valid name (the Mapper's own guidance for multi-map files).
  if (container.anchors().size() != container.maps().size())
    return fail(Diagnostic::error("fomap.fmt.ambiguous_maps", "a multi-map file declares the same map name twice")
                    .of(container.path()));
  // The splice cuts ranges at every line that trims to `[...]`; the parser ignores `[]` and
  // joins continued lines. When the two views of the sections differ, a splice is unsafe.
  std::vector<SpliceRange> ranges = splice_ranges(container.config().text(), container.stem());
  bool unsafe = ranges.size() != container.config().sections().size() - 1;
  for (const auto& sec : container.config().sections())
    if (!sec.ignored_lines.empty()) unsafe = true;
  if (unsafe)
    return fail(Diagnostic::error("fomap.fmt.ambiguous_ranges",
                                  "the Mapper splice would cut this multi-map file differently from the parser "
                                  "(an ignored `[...]` line or a malformed line)")
                    .of(container.path()));
  // Every anchor needs one plain, valid name, and the splice must read the same owner for
  // its range as the parser reads for the anchor (the splice's `$Name` reader knows nothing of
  // comments, quotes, continuations or other blank characters).
  std::vector<const SpliceRange*> anchor_ranges;
  for (const auto& r : ranges)
    if (r.anchor) anchor_ranges.push_back(&r);
  for (std::size_t i = 0; i < container.anchors().size(); ++i) {
    const auto& a = container.anchors()[i];
    const ConfigEntry* n = container.section(a.section).find("$Name");
    const bool same_owner = i < anchor_ranges.size() && anchor_ranges[i]->owner == a.name;
    if (!a.named || !n || !same_owner || n->assignments != 1 || n->line != n->last_line || a.name.empty() ||
        a.name.find_first_of("/$#[]\"\\") != std::string::npos)
      return fail(Diagnostic::error("fomap.fmt.ambiguous_maps",
                                    "every anchor of a multi-map file needs one plain `$Name = <id>` line (no '/', "
                                    "'$', '#', brackets, quotes)")
                      .of(container.path())
                      .in(fmt::format("line {}", a.line)));
  }
  if (anchor_ranges.size() != container.anchors().size())
    return fail(Diagnostic::error("fomap.fmt.ambiguous_ranges",
                                  "the Mapper splice would see a different number of maps than the parser")
                    .of(container.path()));
  return ranges;
}

// The canonical text without the fixed-point check. A multi-map file is spliced in one pass:
// every map's block goes where its first range was, the ranges of other owners stay byte-exact
// (what splicing the maps one after another gives, without rescanning the file per map).
core::Result<std::string> format_unverified(const MapContainer& container, const Project& project,
                                            const CanonicalOptions& options) {
  if (!container.structure_errors().empty()) {
    const auto& e = container.structure_errors().front();
    return fail(
        Diagnostic::error("fomap.fmt.structure", e.message).of(container.path()).in(fmt::format("line {}", e.line)));
  }
  if (container.maps().empty())
    return fail(Diagnostic::error("fomap.fmt.no_map", "the file declares no [ProtoMap]").of(container.path()));
  const std::string_view original = container.config().text();
  std::string out;
  if (container.maps().size() == 1) {
    SORTIE_TRY(out, format_map(container, container.maps()[0].name, project, options));
  } else {
    SORTIE_TRY(const std::vector<SpliceRange> ranges, checked_splice_ranges(container));
    const auto& maps = container.maps();
    std::vector<bool> written(maps.size(), false);
    auto write_block = [&](const MapDefinition& m) -> core::Status {
      written[static_cast<std::size_t>(&m - maps.data())] = true;
      SORTIE_TRY(const std::string block, format_map(container, m.name, project, options));
      out += block;
      return {};
    };
    out.reserve(original.size() + original.size() / 16);
    out.append(original.substr(0, ranges.empty() ? original.size() : ranges.front().begin));
    for (const auto& r : ranges) {
      const MapDefinition* m = container.find_map(r.owner);
      if (!m) {
        out.append(original.substr(r.begin, r.end - r.begin));
      } else if (!written[static_cast<std::size_t>(m - maps.data())]) {
        SORTIE_CHECK(write_block(*m));
      }
    }
    for (const auto& m : maps)
      if (!written[static_cast<std::size_t>(&m - maps.data())]) SORTIE_CHECK(write_block(m));
  }
  // Trailing layout: the Mapper ends with a blank line; a file that ends right after its last
  // line (as the TLA corpus does) keeps ending that way.
  const bool blank_end = original.size() >= 2 && original.substr(original.size() - 2) == "\n\n";
  if (!blank_end && out.size() >= 2 && out.substr(out.size() - 2) == "\n\n") out.pop_back();
  return out;
}

// Reads `out` back and formats it again; gives the second result, which must be `out` itself (a
// text that does not come back the same is refused). Takes `out` so that the text read back is
// the only copy.
core::Result<std::string> verify_fixed_point(std::string out, const std::string& path, const Project& project,
                                             const CanonicalOptions& options) {
  const MapContainer again = MapContainer::from_text(std::move(out), path);
  const std::string_view once = again.config().text();
  auto twice = format_unverified(again, project, options);
  if (twice && *twice == once) return std::move(*twice);
  std::size_t at = 0;
  if (twice)
    while (at < once.size() && at < twice->size() && once[at] == (*twice)[at]) ++at;
  const auto line = 1 + std::count(once.begin(), once.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  return fail(Diagnostic::error("fomap.fmt.unstable",
                                twice ? "the canonical text would not read back the same; a value cannot be written in "
                                        "this grammar (e.g. it ends with `\\` or holds `#` or control bytes)"
                                      : "the canonical text would not load again: " + twice.error().message)
                  .of(path)
                  .in(fmt::format("line {} of the output", line)));
}

}  // namespace

core::Result<std::string> format_container(const MapContainer& container, const Project& project,
                                           const CanonicalOptions& options) {
  SORTIE_TRY(std::string out, format_unverified(container, project, options));
  // A text that is already canonical is trivially a fixed point.
  if (options.verify_fixed_point && out != container.config().text())
    return verify_fixed_point(std::move(out), container.path(), project, options);
  return out;
}

core::Result<FormattedText> format_text(std::string text, const std::string& path, const Project& project,
                                        const CanonicalOptions& options) {
  FormattedText result;
  {
    const MapContainer container = MapContainer::from_text(std::move(text), path);
    SORTIE_TRY(result.text, format_unverified(container, project, options));
    result.changed = result.text != container.config().text();
  }  // the parsed input is released before the output is parsed again
  if (options.verify_fixed_point && result.changed) {
    SORTIE_TRY(result.text, verify_fixed_point(std::move(result.text), path, project, options));
  }
  return result;
}

}  // namespace sortie::fomap
