// Legacy map formats -> current nested format (spec/fomap.md §14). Bare sections: migrate.cpp;
// classic [Header]/[Tiles]/[Objects]: migrate_classic.cpp.
#include "sortie/fomap/migrate.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>

#include "migrate_internal.hpp"
#include "sortie/core/file_io.hpp"
#include "sortie/fomap/config.hpp"
#include "sortie/fomap/values.hpp"

namespace sortie::fomap {

std::string_view to_string(LegacyFormat format) {
  switch (format) {
    case LegacyFormat::current:
      return "current";
    case LegacyFormat::bare_v2:
      return "bare-sections-v2";
    case LegacyFormat::bare_v1:
      return "bare-sections-v1";
    case LegacyFormat::classic:
      return "classic";
    case LegacyFormat::unknown:
      break;
  }
  return "unknown";
}

core::Json MigrationLoss::to_json() const {
  return core::Json{{"code", code}, {"what", what}, {"message", message}, {"first_line", first_line}, {"count", count}};
}

core::Json MigrationResult::to_json() const {
  core::Json losses_json = core::Json::array();
  for (const auto& l : losses) losses_json.push_back(l.to_json());
  return core::Json{
      {"from", std::string(fomap::to_string(from))}, {"critters", critters},   {"items", items},
      {"renamed_sections", renamed_sections},        {"lossless", lossless()}, {"not_carried", losses_json}};
}

namespace migrate_detail {

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  std::size_t pos = 0;
  std::uint32_t number = 1;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(Line{text.substr(pos, end - pos), number++});
    pos = end;
  }
  return lines;
}

std::optional<HeaderLine> parse_header(std::string_view line) {
  const std::string_view t = trim_line(line);
  if (t.empty() || t.front() != '[') return std::nullopt;
  const std::size_t close = t.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view name = trim_line(t.substr(1, close - 1));
  if (name.empty()) return std::nullopt;
  const std::size_t open_at = line.find('[');
  return HeaderLine{name, open_at, line.find(']', open_at)};
}

void LossLog::add(std::string code, std::string what, std::string message, std::uint32_t line, std::uint64_t n) {
  auto key = std::make_pair(code, what);
  auto it = losses_.find(key);
  if (it == losses_.end()) {
    losses_.emplace(std::move(key), MigrationLoss{std::move(code), std::move(what), std::move(message), line, n});
  } else {
    it->second.count += n;
  }
}

std::vector<MigrationLoss> LossLog::take() {
  std::vector<MigrationLoss> out;
  out.reserve(losses_.size());
  for (auto& [k, v] : losses_) out.push_back(std::move(v));
  return out;
}

void write_section(std::string& out, std::string_view header, const KeyMap& keys) {
  out += '[';
  out += header;
  out += "]\n";
  for (const auto& [k, v] : keys) {
    out += k;
    out += " = ";
    out += v;
    out += '\n';
  }
  out += '\n';
}

const PropertyCatalog& target_catalog(const MigrateOptions& options) {
  static const PropertyCatalog engine_catalog = PropertyCatalog::engine();
  return options.catalog ? *options.catalog : engine_catalog;
}

void keep_known(KeyMap& keys, std::string_view receiver, const PropertyCatalog& catalog, LossLog& losses,
                std::uint32_t line) {
  for (auto it = keys.begin(); it != keys.end();) {
    if (!it->first.starts_with("$") && !catalog.find(receiver, it->first)) {
      losses.add("fomap.migrate.unknown_property", fmt::format("{}.{}", receiver, it->first),
                 "converted value has no property in the target catalog (pass the project's protos to keep it)", line);
      it = keys.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace migrate_detail

namespace {

using namespace migrate_detail;

bool is_v1_key(std::string_view section, std::string_view key) {
  if (section == "ProtoMap") return key == "Width" || key == "Height" || key == "WorkHexX" || key == "WorkHexY";
  return key == "HexX" || key == "HexY" || key == "OffsetX" || key == "OffsetY";
}

// v2: rename bare headers line by line; every other byte is kept.
MigrationResult migrate_bare_v2(std::string_view text) {
  MigrationResult res;
  res.from = LegacyFormat::bare_v2;
  LossLog losses;
  res.text.reserve(text.size() + 4096);
  bool anchor_seen = false;
  for (const Line& line : split_lines(text)) {
    const auto h = parse_header(line.text);
    if (h && (h->name == "Critter" || h->name == "Item")) {
      if (!anchor_seen)
        losses.add("fomap.migrate.before_anchor", std::string(h->name),
                   "bare placement section before the first [ProtoMap]: renamed, but `$Name/` has no anchor to bind to",
                   line.number);
      (h->name == "Critter" ? res.critters : res.items) += 1;
      ++res.renamed_sections;
      res.text.append(line.text.substr(0, h->open));
      res.text += "[$Name/";
      res.text += h->name;
      res.text.append(line.text.substr(h->close));
      continue;
    }
    if (h && h->name == "ProtoMap") anchor_seen = true;
    res.text.append(line.text);
  }
  res.losses = losses.take();
  return res;
}

std::string join_pair(const ConfigSection& s, std::string_view kx, std::string_view ky) {
  const ConfigEntry* x = s.find(kx);
  const ConfigEntry* y = s.find(ky);
  return fmt::format("{} {}", x ? x->value : "0", y ? y->value : "0");
}

// v1: rewrite bodies through the grammar.
MigrationResult migrate_bare_v1(std::string_view text, const MigrateOptions& options) {
  const PropertyCatalog& catalog = target_catalog(options);
  MigrationResult res;
  res.from = LegacyFormat::bare_v1;
  LossLog losses;
  ConfigFile cfg = parse_config(std::string(text));
  std::int64_t max_id = 0;
  for (const auto& s : cfg.sections())
    if (const ConfigEntry* id = s.find("$Id")) max_id = std::max(max_id, lenient_int64(id->value));
  // Tiles get ids above every authored one; none are left when an authored id is INT64_MAX.
  std::optional<std::int64_t> next_id;
  if (max_id < std::numeric_limits<std::int64_t>::max()) next_id = max_id + 1;
  bool anchor_seen = false;
  for (const auto& s : cfg.sections()) {
    if (s.is_default()) {
      if (!s.entries.empty())
        losses.add("fomap.migrate.preamble", "", "keys before the first section are ignored by the engine; not carried",
                   s.entries.front().line, s.entries.size());
      continue;
    }
    KeyMap keys;
    if (s.name == "ProtoMap") {
      anchor_seen = true;
      for (const auto& e : s.entries)
        if (!is_v1_key(s.name, e.key)) keys[std::string(e.key)] = std::string(e.value);
      if (s.find("Width") || s.find("Height")) keys["Size"] = join_pair(s, "Width", "Height");
      if (s.find("WorkHexX") || s.find("WorkHexY")) keys["WorkHex"] = join_pair(s, "WorkHexX", "WorkHexY");
      if (!options.map_name.empty() && !s.find("$Name")) keys["$Name"] = options.map_name;
      keep_known(keys, "Map", catalog, losses, s.header_line);
      write_section(res.text, "ProtoMap", keys);
      continue;
    }
    if (s.name == "Critter" || s.name == "Item") {
      if (!anchor_seen)
        losses.add("fomap.migrate.before_anchor", std::string(s.name),
                   "bare placement section before the first [ProtoMap]: `$Name/` has no anchor to bind to",
                   s.header_line);
      for (const auto& e : s.entries)
        if (!is_v1_key(s.name, e.key)) keys[std::string(e.key)] = std::string(e.value);
      if (s.find("HexX") || s.find("HexY")) keys["Hex"] = join_pair(s, "HexX", "HexY");
      const std::string_view receiver = s.name == "Critter" ? "Critter" : "Item";
      if (s.find("OffsetX") || s.find("OffsetY")) {
        if (catalog.find(receiver, "Offset"))
          keys["Offset"] = join_pair(s, "OffsetX", "OffsetY");
        else
          losses.add(
              "fomap.migrate.offset", fmt::format("{}.OffsetX/OffsetY", receiver),
              fmt::format("{} has no Offset property in the target catalog; the pixel offset is not carried", receiver),
              s.header_line);
      }
      keep_known(keys, receiver, catalog, losses, s.header_line);
      (s.name == "Critter" ? res.critters : res.items) += 1;
      ++res.renamed_sections;
      write_section(res.text, s.name == "Critter" ? "$Name/Critter" : "$Name/Item", keys);
      continue;
    }
    if (s.name == "Tile") {
      const ConfigEntry* roof = s.find("IsRoof");
      const bool is_roof = roof && (roof->value == "1" || iequals(roof->value, "true"));
      const std::string& proto = is_roof ? options.roof_proto : options.tile_proto;
      if (proto.empty()) {
        losses.add("fomap.migrate.tile", is_roof ? "roof" : "tile",
                   "[Tile] sections have no current equivalent without a tile proto (--tile-proto / --roof-proto)",
                   s.header_line);
        continue;
      }
      if (!next_id) {
        losses.add("fomap.migrate.tile_id", is_roof ? "roof" : "tile",
                   "no free $Id above the authored ids for this tile; not carried", s.header_line);
        continue;
      }
      keys["$Id"] = std::to_string(*next_id);
      next_id = *next_id < std::numeric_limits<std::int64_t>::max() ? std::optional<std::int64_t>(*next_id + 1)
                                                                    : std::nullopt;
      keys["$Proto"] = proto;
      keys["Hex"] = join_pair(s, "HexX", "HexY");
      if (const ConfigEntry* pic = s.find("PicMap")) keys["PicMap"] = std::string(pic->value);
      for (const auto& e : s.entries)
        if (e.key != "HexX" && e.key != "HexY" && e.key != "PicMap" && e.key != "IsRoof")
          losses.add("fomap.migrate.tile_key", std::string(e.key), "tile key without a current equivalent", e.line);
      ++res.items;
      write_section(res.text, "$Name/Item", keys);
      continue;
    }
    if (s.nested()) {
      for (const auto& e : s.entries) keys[std::string(e.key)] = std::string(e.value);
      write_section(res.text, s.name, keys);
      continue;
    }
    losses.add("fomap.migrate.section", std::string(s.name), "section kind not known to any map format; not carried",
               s.header_line);
  }
  res.losses = losses.take();
  return res;
}

}  // namespace

bool migrate_detail::iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x >= 'A' && x <= 'Z' ? x + 32 : x) == (y >= 'A' && y <= 'Z' ? y + 32 : y);
         });
}

LegacyFormat detect_legacy_format(std::string_view text) {
  bool classic = false, bare = false, v1 = false, anchor = false, nested = false, other = false;
  std::string_view section;
  for (const Line& line : split_lines(text)) {
    if (const auto h = parse_header(line.text)) {
      section = h->name;
      if (h->name == "Header" || h->name == "Tiles" || h->name == "Objects")
        classic = true;
      else if (h->name == "Critter" || h->name == "Item")
        bare = true;
      else if (h->name == "Tile")
        bare = v1 = true;
      else if (h->name == "ProtoMap")
        anchor = true;
      else if (h->name.find('/') != std::string_view::npos)
        nested = true;
      else
        other = true;
      continue;
    }
    if (bare && !v1) {
      const std::string_view t = trim_line(line.text);
      const std::size_t eq = t.find('=');
      if (eq != std::string_view::npos && is_v1_key(section, trim_value(t.substr(0, eq)))) v1 = true;
    }
  }
  if (classic) return LegacyFormat::classic;
  if (bare) return v1 ? LegacyFormat::bare_v1 : LegacyFormat::bare_v2;
  if (anchor && !other) return LegacyFormat::current;
  (void)nested;
  return LegacyFormat::unknown;
}

core::Result<MigrationResult> migrate_map(std::string_view text, std::string_view path, const MigrateOptions& options) {
  const LegacyFormat format = detect_legacy_format(text);
  switch (format) {
    case LegacyFormat::current: {
      MigrationResult res;
      res.from = format;
      res.text = std::string(text);
      return res;
    }
    case LegacyFormat::bare_v2:
      return migrate_bare_v2(text);
    case LegacyFormat::bare_v1:
      return migrate_bare_v1(text, options);
    case LegacyFormat::classic:
      return migrate_detail::migrate_classic(text, path, options);
    case LegacyFormat::unknown:
      break;
  }
  return core::fail(
      core::Diagnostic::error("fomap.migrate.format", "not a map in any known format")
          .of(std::string(path))
          .expect("[ProtoMap] (+ [Critter]/[Item]/[Tile]) or [Header]/[Tiles]/[Objects]", "no recognised section"));
}

core::Result<std::map<std::int64_t, std::string>> parse_proto_name_table(std::string_view text, std::string_view file) {
  std::map<std::int64_t, std::string> table;
  for (const Line& line : split_lines(text)) {
    std::string_view l = line.text;
    if (!l.empty() && l.back() == '\n') l.remove_suffix(1);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    if (l.empty() || l.front() == '#') continue;
    const auto bad = [&](std::string message, std::string expected) {
      return core::fail(core::Diagnostic::error("usage.proto_names", std::move(message))
                            .of(std::string(file))
                            .in(fmt::format("line {}", line.number))
                            .expect(std::move(expected), std::string(l)));
    };
    const std::size_t tab = l.find('\t');
    std::int64_t pid = 0;
    const char* end = l.data() + (tab == std::string_view::npos ? l.size() : tab);
    const auto [p, ec] = std::from_chars(l.data(), end, pid);
    if (tab == std::string_view::npos || ec != std::errc() || p != end || tab + 1 >= l.size())
      return bad("expected `<pid><TAB><name>`", "<pid>\\t<name>");
    if (!table.emplace(pid, std::string(l.substr(tab + 1))).second)
      return bad(fmt::format("pid {} is given twice", pid), "each pid once");
  }
  return table;
}

core::Result<std::map<std::int64_t, std::string>> read_proto_name_table(const std::filesystem::path& path) {
  SORTIE_TRY(const std::string text, core::read_text_file(path));
  return parse_proto_name_table(text, path.string());
}

}  // namespace sortie::fomap
