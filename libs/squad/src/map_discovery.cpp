#include "sortie/squad/map_discovery.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <system_error>

#include "sortie/core/exit_code.hpp"
#include "sortie/squad/map.hpp"

namespace sortie::squad {

namespace fs = std::filesystem;

fs::path current_executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
}

std::vector<fs::path> default_map_dirs(const fs::path& executable) {
  std::vector<fs::path> dirs{fs::path("data") / "squad"};
  if (!executable.empty()) {
    dirs.push_back(executable.parent_path() / ".." / ".." / ".." / ".." / "data" /
                   "squad");  // build/<preset>/apps/sortie
    dirs.push_back(executable.parent_path() / ".." / "share" / "sortie" / "squad");
  }
  return dirs;
}

core::Result<std::vector<NamedMap>> collect_maps(const std::vector<std::string>& args,
                                                 const std::vector<fs::path>& default_dirs) {
  std::vector<fs::path> files;
  const auto add_dir = [&](const fs::path& dir) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".txt") found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  };
  if (args.empty()) {
    for (const auto& dir : default_dirs) {
      std::error_code ec;
      if (fs::is_directory(dir, ec)) {
        add_dir(dir);
        break;
      }
    }
    if (files.empty()) {
      return core::fail(core::Diagnostic::error("usage.squad.maps",
                                                "no maps found (looked for data/squad); pass --maps DIR|FILE..."));
    }
  }
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      const std::size_t before = files.size();
      add_dir(a);
      if (files.size() == before)
        return core::fail(core::Diagnostic::error("usage.squad.maps", "no *.txt maps in the directory").of(a));
    } else {
      files.emplace_back(a);
    }
  }
  std::vector<NamedMap> maps;
  for (const auto& f : files) {
    SORTIE_TRY(SquadMap m, load_squad_map(f));
    maps.push_back({f.filename().string(), std::move(m)});
  }
  return maps;
}

MapCheckRun check_maps(const std::vector<std::string>& paths) {
  MapCheckRun run;
  for (const std::string& path : paths) {
    MapCheck c;
    c.path = path;
    auto map = load_squad_map(path);
    if (map) {
      c.map = std::move(*map);
    } else {
      c.error = map.error();
    }
    run.maps.push_back(std::move(c));
  }
  return run;
}

int MapCheckRun::exit_code() const {
  int code = core::kExitOk;
  for (const MapCheck& c : maps) {
    if (c.error) code = std::max(code, core::exit_code_for(*c.error));
  }
  return code;
}

core::Json MapCheckRun::to_json() const {
  core::Json out = core::Json::array();
  for (const MapCheck& c : maps) {
    if (c.error) {
      out.push_back({{"map", c.path}, {"ok", false}, {"error", c.error->to_json()}});
      continue;
    }
    out.push_back({{"map", c.path},
                   {"ok", true},
                   {"name", c.map->name},
                   {"width", c.map->width},
                   {"height", c.map->height},
                   {"squads", c.map->squads.size()},
                   {"hostiles", c.map->hostiles.size()},
                   {"lairs", c.map->lairs.size()}});
  }
  return out;
}

std::string MapCheckRun::to_text(std::vector<core::Diagnostic>& errors) const {
  std::string out;
  for (const MapCheck& c : maps) {
    if (c.error) {
      errors.push_back(*c.error);
      continue;
    }
    out += fmt::format("{}: ok: '{}' {}x{}, {} squad(s) of {}, {} hostiles, {} lairs\n", c.path, c.map->name,
                       c.map->width, c.map->height, c.map->squads.size(), c.map->squad_size, c.map->hostiles.size(),
                       c.map->lairs.size());
  }
  return out;
}

}  // namespace sortie::squad
