#include "sortie/squad/map.hpp"

#include <fmt/format.h>

#include <charconv>

#include "sortie/core/file_io.hpp"
#include "sortie/core/hash.hpp"
#include "sortie/core/text.hpp"

namespace sortie::squad {
namespace {

using core::Diagnostic;

struct Line {
  std::string_view text;  // without the line break and a trailing '\r'
  int number = 0;
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 1;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    std::string_view l = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (nl == std::string_view::npos) {
      if (!l.empty()) lines.push_back({l, number});
      break;
    }
    lines.push_back({l, number});
    pos = nl + 1;
    ++number;
  }
  return lines;
}

bool is_space(char c) {
  return c == ' ' || c == '\t';
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

bool blank_or_comment(std::string_view s) {
  s = core::trim(s, core::kBlanks);
  return s.empty() || s.front() == '#';
}

std::string quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      out += fmt::format("\\x{:02x}", u);
    }
  }
  return out + "'";
}

class Parser {
 public:
  explicit Parser(std::string_view file) : file_(file) {}

  Diagnostic error(int line, std::string_view code, std::string message) const {
    return Diagnostic::error(fmt::format("squad.map.{}", code), std::move(message))
        .of(fmt::format("{}:{}", file_, line));
  }

  core::Result<int> integer(const Line& l, std::string_view word, int lo, int hi, std::string_view what) const {
    int v = 0;
    const auto* end = word.data() + word.size();
    const auto r = std::from_chars(word.data(), end, v);
    if (r.ec != std::errc() || r.ptr != end || v < lo || v > hi) {
      return core::fail(error(l.number, "value", fmt::format("{} must be a whole number from {} to {}", what, lo, hi))
                            .in(std::string(what))
                            .expect(fmt::format("{} .. {}", lo, hi), quoted(word)));
    }
    return v;
  }

  core::Result<SquadMap> parse(std::string_view text) {
    const auto lines = split_lines(text);
    SquadMap map;
    std::size_t i = 0;
    while (i < lines.size() && blank_or_comment(lines[i].text)) ++i;
    if (i == lines.size()) {
      return core::fail(error(lines.empty() ? 1 : lines.back().number, "header", "empty map: no 'squad-map 1' line")
                            .expect("squad-map 1", "end of file"));
    }
    {
      const auto w = words(lines[i].text);
      if (w.empty() || w[0] != "squad-map") {
        return core::fail(error(lines[i].number, "header", "a squad map starts with 'squad-map 1'")
                              .expect("squad-map 1", quoted(core::trim(lines[i].text, core::kBlanks))));
      }
      if (w.size() != 2 || w[1] != "1") {
        return core::fail(error(lines[i].number, "version", "unknown squad map version")
                              .in("squad-map")
                              .expect("1", quoted(w.size() > 1 ? w[1] : std::string_view("(none)"))));
      }
      ++i;
    }
    bool seen_name = false, seen_squad = false, seen_formation = false, seen_heading = false;
    Tuning scratch;
    int last_tune_line = 0;
    for (; i < lines.size(); ++i) {
      const Line& l = lines[i];
      if (blank_or_comment(l.text)) continue;
      for (char c : l.text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\t') || u >= 0x7f) {
          return core::fail(error(l.number, "char", "only printable ASCII is allowed outside comments")
                                .expect("printable ASCII", fmt::format("byte 0x{:02x}", u)));
        }
      }
      const auto w = words(l.text);
      const std::string_view key = w[0];
      const auto duplicate = [&](bool& seen) -> core::Status {
        if (seen)
          return core::fail(error(l.number, "duplicate", fmt::format("'{}' is given twice", key)).in(std::string(key)));
        seen = true;
        return {};
      };
      const auto arity = [&](std::size_t n, std::string_view form) -> core::Status {
        if (w.size() != n) {
          return core::fail(error(l.number, "value", fmt::format("'{}' takes {}", key, form))
                                .in(std::string(key))
                                .expect(std::string(form), quoted(core::trim(l.text, core::kBlanks))));
        }
        return {};
      };
      if (key == "name") {
        SORTIE_CHECK(duplicate(seen_name));
        const std::string_view rest = core::trim(core::trim(l.text, core::kBlanks).substr(4), core::kBlanks);
        if (rest.empty() || rest.size() > 64) {
          return core::fail(error(l.number, "value", "a name has 1 to 64 characters")
                                .in("name")
                                .expect("1 .. 64 characters", fmt::format("{}", rest.size())));
        }
        map.name = std::string(rest);
      } else if (key == "squad") {
        SORTIE_CHECK(duplicate(seen_squad));
        SORTIE_CHECK(arity(2, "one number (agents per squad)"));
        SORTIE_TRY(const int n, integer(l, w[1], 1, static_cast<int>(kSquadSizeMax), "squad"));
        map.squad_size = static_cast<std::uint32_t>(n);
      } else if (key == "formation") {
        SORTIE_CHECK(duplicate(seen_formation));
        SORTIE_CHECK(arity(2, "wedge, line or ring"));
        const auto f = formation_from_string(w[1]);
        if (!f) {
          return core::fail(error(l.number, "value", "unknown formation")
                                .in("formation")
                                .expect("wedge, line or ring", quoted(w[1])));
        }
        map.formation = *f;
      } else if (key == "heading") {
        SORTIE_CHECK(duplicate(seen_heading));
        SORTIE_CHECK(arity(2, "east, south, west or north"));
        bool found = false;
        for (Heading h : {Heading::east, Heading::south, Heading::west, Heading::north}) {
          if (w[1] == to_string(h)) {
            map.heading = h;
            found = true;
          }
        }
        if (!found) {
          return core::fail(error(l.number, "value", "unknown heading")
                                .in("heading")
                                .expect("east, south, west or north", quoted(w[1])));
        }
      } else if (key == "tune") {
        SORTIE_CHECK(arity(3, "a field name and a value"));
        for (const auto& [name, value] : map.tune) {
          if (name == w[1]) {
            return core::fail(error(l.number, "duplicate", fmt::format("tuning field {} is given twice", w[1]))
                                  .in("tune." + std::string(w[1])));
          }
        }
        auto st = set_tuning_field(scratch, w[1], w[2]);
        if (!st) {
          Diagnostic d = std::move(st).error();
          d.code = "squad.map.tune";
          d.file = fmt::format("{}:{}", file_, l.number);
          d.field = "tune." + std::string(w[1]);
          return core::fail(std::move(d));
        }
        map.tune.emplace_back(std::string(w[1]), tuning_field_text(scratch, *find_tuning_field(w[1])));
        last_tune_line = l.number;
      } else if (key == "grid") {
        SORTIE_CHECK(arity(3, "width and height"));
        SORTIE_TRY(map.width, integer(l, w[1], 1, kMapSizeMax, "grid width"));
        SORTIE_TRY(map.height, integer(l, w[2], 1, kMapSizeMax, "grid height"));
        SORTIE_CHECK(parse_grid(lines, i, map));
        break;
      } else {
        return core::fail(error(l.number, "directive", "unknown directive")
                              .expect("name, squad, formation, heading, tune or grid", quoted(key)));
      }
    }
    if (map.width == 0) {
      return core::fail(
          error(lines.back().number, "no_grid", "the map has no 'grid W H' section").expect("grid W H", "end of file"));
    }
    if (auto st = validate_tuning(scratch); !st) {
      Diagnostic d = std::move(st).error();
      d.code = "squad.map.tune";
      d.file = fmt::format("{}:{}", file_, last_tune_line);
      return core::fail(std::move(d));
    }
    return map;
  }

 private:
  // Reads the `map.height` rows after lines[i] (the grid line); i ends on the last line read.
  core::Status parse_grid(const std::vector<Line>& lines, std::size_t& i, SquadMap& map) const {
    const int grid_line = lines[i].number;
    const auto w = static_cast<std::size_t>(map.width);
    map.solid.assign(w * static_cast<std::size_t>(map.height), 0);
    for (int row = 0; row < map.height; ++row) {
      ++i;
      if (i >= lines.size()) {
        return core::fail(error(lines.empty() ? grid_line : lines.back().number, "rows_missing",
                                fmt::format("the grid ends after {} of {} rows", row, map.height))
                              .in("grid")
                              .expect(fmt::format("{} rows", map.height), fmt::format("{} rows", row)));
      }
      const Line& l = lines[i];
      std::string_view text = l.text;
      while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
      if (text.size() != w) {
        return core::fail(error(l.number, "row_width", fmt::format("grid row {} has {} cells", row, text.size()))
                              .in(fmt::format("grid[{}]", row))
                              .expect(fmt::format("{} cells", w), fmt::format("{} cells", text.size())));
      }
      for (std::size_t col = 0; col < w; ++col) {
        const char c = text[col];
        const CellPos cell{static_cast<int>(col), row};
        switch (c) {
          case '#':
            map.solid[static_cast<std::size_t>(row) * w + col] = 1;
            break;
          case '.':
            break;
          case '@':
            map.squads.push_back(cell);
            break;
          case 'h':
            map.hostiles.push_back(cell);
            break;
          case 'H':
            map.lairs.push_back(cell);
            break;
          default:
            return core::fail(error(l.number, "cell", fmt::format("unknown cell at column {}", col + 1))
                                  .in(fmt::format("grid[{}][{}]", row, col))
                                  .expect("# . @ h H", quoted(std::string_view(&text[col], 1))));
        }
      }
    }
    const int last_row_line = lines[i].number;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      if (!blank_or_comment(lines[j].text)) {
        return core::fail(error(lines[j].number, "trailing", "text after the grid")
                              .expect("blank or comment lines", quoted(core::trim(lines[j].text, core::kBlanks))));
      }
    }
    if (map.squads.empty()) {
      return core::fail(
          error(grid_line, "no_squad", "the grid has no squad start '@'").in("grid").expect("1 or more '@'", "0"));
    }
    if (map.squads.size() > kSquadsMax) {
      return core::fail(error(grid_line, "too_many_squads", "too many squad starts '@'")
                            .in("grid")
                            .expect(fmt::format("at most {}", kSquadsMax), fmt::format("{}", map.squads.size())));
    }
    if (map.hostiles.empty() && map.lairs.empty()) {
      return core::fail(error(grid_line, "no_hostiles", "a combat map needs at least one hostile 'h' or lair 'H'")
                            .in("grid")
                            .expect("1 or more 'h' or 'H'", "0"));
    }
    (void)last_row_line;
    return {};
  }

  std::string_view file_;
};

}  // namespace

std::string_view to_string(Heading h) {
  switch (h) {
    case Heading::east:
      return "east";
    case Heading::south:
      return "south";
    case Heading::west:
      return "west";
    case Heading::north:
      return "north";
  }
  return "east";
}

core::Vec2 heading_vector(Heading h) {
  switch (h) {
    case Heading::east:
      return {1.0f, 0.0f};
    case Heading::south:
      return {0.0f, 1.0f};
    case Heading::west:
      return {-1.0f, 0.0f};
    case Heading::north:
      return {0.0f, -1.0f};
  }
  return {1.0f, 0.0f};
}

core::Result<SquadMap> parse_squad_map(std::string_view text, std::string_view file) {
  return Parser(file).parse(text);
}

core::Result<SquadMap> load_squad_map(const std::filesystem::path& path) {
  SORTIE_TRY(const std::string text, core::read_text_file(path, kMapFileMax));
  return parse_squad_map(text, path.string());
}

std::string write_squad_map(const SquadMap& map) {
  std::string out = fmt::format("squad-map {}\n", kMapVersion);
  if (!map.name.empty()) out += fmt::format("name {}\n", map.name);
  out += fmt::format("squad {}\nformation {}\nheading {}\n", map.squad_size, to_string(map.formation),
                     to_string(map.heading));
  for (const auto& [name, value] : map.tune) out += fmt::format("tune {} {}\n", name, value);
  out += fmt::format("grid {} {}\n", map.width, map.height);
  const auto w = static_cast<std::size_t>(map.width);
  std::vector<char> grid(w * static_cast<std::size_t>(map.height), '.');
  for (std::size_t k = 0; k < grid.size() && k < map.solid.size(); ++k) {
    if (map.solid[k] != 0) grid[k] = '#';
  }
  const auto mark = [&](const std::vector<CellPos>& cells, char c) {
    for (const auto& p : cells) {
      if (p.x >= 0 && p.y >= 0 && p.x < map.width && p.y < map.height)
        grid[static_cast<std::size_t>(p.y) * w + static_cast<std::size_t>(p.x)] = c;
    }
  };
  mark(map.hostiles, 'h');
  mark(map.lairs, 'H');
  mark(map.squads, '@');
  for (int row = 0; row < map.height; ++row) {
    out.append(grid.data() + static_cast<std::size_t>(row) * w, w);
    out += '\n';
  }
  return out;
}

core::Result<Tuning> map_tuning(const SquadMap& map, const Tuning& base) {
  Tuning t = base;
  for (const auto& [name, value] : map.tune) {
    auto st = set_tuning_field(t, name, value);
    if (!st) return core::fail(std::move(st).error().within("tune." + name));
  }
  SORTIE_CHECK(validate_tuning(t));
  return t;
}

std::uint64_t map_fingerprint(const SquadMap& map) {
  return core::hash64(write_squad_map(map));
}

}  // namespace sortie::squad
