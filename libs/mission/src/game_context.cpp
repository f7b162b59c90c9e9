#include "sortie/mission/game_context.hpp"

#include <fmt/format.h>

#include <system_error>

#include "sortie/mission/mission_effects.hpp"

namespace sortie::mission {

GameContext::GameContext(std::unique_ptr<assets::Vfs> vfs, const GameContextOptions& options)
    : options_(options), vfs_(std::move(vfs)) {
  options_.resolver.profile = options_.profile;
  repo_ = std::make_unique<assets::ArchiveRepository>(*vfs_);
  resolver_ = std::make_unique<assets::PrototypeResolver>(*repo_, options_.resolver);
  session_ = std::make_unique<MissionSession>(*repo_, *resolver_);
}

GameContext::GameContext(GameContext&&) noexcept = default;
GameContext& GameContext::operator=(GameContext&& other) noexcept {
  if (this != &other) {
    // Users before what they use: session, resolver, repository, then the VFS.
    session_.reset();
    resolver_.reset();
    repo_.reset();
    vfs_.reset();
    options_ = std::move(other.options_);
    vfs_ = std::move(other.vfs_);
    repo_ = std::move(other.repo_);
    resolver_ = std::move(other.resolver_);
    session_ = std::move(other.session_);
  }
  return *this;
}

// Members are destroyed in reverse order: session, resolver, repository, then the VFS they use.
GameContext::~GameContext() = default;

core::Result<GameContext> GameContext::open(const std::filesystem::path& dir, const GameContextOptions& options) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (ec || !std::filesystem::exists(status)) {
    const std::string why = ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such directory";
    return core::fail(core::Diagnostic::error("io.not_found", fmt::format("cannot open the game directory: {}", why))
                          .of(dir.string()));
  }
  if (!std::filesystem::is_directory(status))
    return core::fail(
        core::Diagnostic::error("io.not_a_directory", "the game path is not a directory").of(dir.string()));
  return GameContext(std::make_unique<assets::DirectoryVfs>(dir), options);
}

GameContext GameContext::over(std::unique_ptr<assets::Vfs> vfs, const GameContextOptions& options) {
  return GameContext(std::move(vfs), options);
}

core::Result<std::vector<std::string>> GameContext::missions() const {
  return assets::list_missions(*vfs_);
}

core::Result<std::string> GameContext::first_mission() const {
  auto list = missions();
  if (!list && list.error().code != "vfs.not_found") return core::fail(std::move(list.error()));
  if (!list || list->empty())
    return core::fail(
        core::Diagnostic::error("load.no_missions", "no MISSIONS/<name>/data.tma in the game directory")
            .of(vfs_->describe(*assets::normalize_path("MISSIONS", assets::PathPolicy::host_compatible))));
  return list->front();
}

core::Result<assets::MissionData> GameContext::prepare(std::string_view mission, assets::ProgressFn progress) {
  assets::MissionPrepareOptions po;
  po.profile = options_.profile;
  po.progress = std::move(progress);
  SORTIE_TRY(auto md, assets::prepare_mission(*repo_, *resolver_, mission, po));
  resolve_mission_effects(*vfs_, *resolver_, md, options_.profile);  // the edges only: nothing runs here
  return md;
}

core::Result<MissionLoadReport> GameContext::load(std::string_view mission) {
  return load(mission, MissionLoadOptions{});
}

core::Result<MissionLoadReport> GameContext::load(std::string_view mission, MissionLoadOptions options) {
  options.profile = options_.profile;
  return session_->load(mission, options);
}

}  // namespace sortie::mission
