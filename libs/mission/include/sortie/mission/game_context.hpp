#pragma once
// One game directory opened for missions: the wiring directory -> VFS -> archive repository ->
// prototype resolver -> mission session that every client (CLI commands, tests, benchmarks,
// the viewer) needs, owned in one place. The parts live on the heap, so a GameContext can be
// moved while the references between them stay valid.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/mission_data.hpp"
#include "sortie/assets/prototype_resolver.hpp"
#include "sortie/assets/vfs.hpp"
#include "sortie/mission/mission_loader.hpp"

namespace sortie::mission {

struct GameContextOptions {
  core::Profile profile = core::Profile::strict;  // format readers, resolver, loader and visual store
  assets::ResolverOptions resolver;               // its profile is `profile`
};

class GameContext {
 public:
  // A game directory on disk. Errors (I/O, exit code 2 in the CLI): io.not_found (no such
  // path), io.not_a_directory.
  static core::Result<GameContext> open(const std::filesystem::path& dir, const GameContextOptions& options = {});
  // Any VFS (tests use a MemoryVfs filled by GameBuilder or the sample generator).
  static GameContext over(std::unique_ptr<assets::Vfs> vfs, const GameContextOptions& options = {});

  GameContext(GameContext&&) noexcept;
  GameContext& operator=(GameContext&&) noexcept;
  ~GameContext();

  [[nodiscard]] const GameContextOptions& options() const { return options_; }
  [[nodiscard]] const assets::Vfs& vfs() const { return *vfs_; }
  [[nodiscard]] assets::ArchiveRepository& repository() { return *repo_; }
  [[nodiscard]] assets::PrototypeResolver& resolver() { return *resolver_; }
  [[nodiscard]] MissionSession& session() { return *session_; }
  [[nodiscard]] const MissionSession& session() const { return *session_; }

  // Mission names (MISSIONS/<name>/data.tma), sorted.
  [[nodiscard]] core::Result<std::vector<std::string>> missions() const;
  // The first mission; load.no_missions when the directory has none.
  [[nodiscard]] core::Result<std::string> first_mission() const;
  // Phases 1-5 only (the dependency graph; no visuals, no world): `sortie mission graph`.
  core::Result<assets::MissionData> prepare(std::string_view mission, assets::ProgressFn progress = {});
  // The whole staged load into the session (options.profile is the context's profile).
  core::Result<MissionLoadReport> load(std::string_view mission, MissionLoadOptions options);
  core::Result<MissionLoadReport> load(std::string_view mission);  // default options (see MissionSession)
  [[nodiscard]] const LoadedMission* current() const { return session_->current(); }
  [[nodiscard]] LoadedMission* current() { return session_->current(); }

 private:
  GameContext(std::unique_ptr<assets::Vfs> vfs, const GameContextOptions& options);
  GameContextOptions options_;
  std::unique_ptr<assets::Vfs> vfs_;
  std::unique_ptr<assets::ArchiveRepository> repo_;
  std::unique_ptr<assets::PrototypeResolver> resolver_;
  std::unique_ptr<MissionSession> session_;
};

}  // namespace sortie::mission
