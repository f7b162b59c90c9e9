#pragma once
// Every absolute limit of the Iron3D readers, in one place (issue #21 part 4). Each bounds what a
// hostile file can make a reader allocate or walk; all are checked before anything is allocated.
// The spec's defaults (iron3d-formats.md §1.1: file 256 MiB, entries 1,000,000, string 64 KiB,
// array items 1,000,000) are kept where the spec names a number. Exceeding one gives
// "<format>.limit" (tma.string_too_long for a TMA string, as before). The archive limits are the
// defaults of NresLimits / RsliLimits, which a caller may lower. tests/iron3d/limits_test.cpp
// feeds each limit and limit + 1.
#include <cstddef>
#include <cstdint>

namespace sortie::iron3d {

// ---- NRes (spec §3.2): the defaults of NresLimits.
// Whole archive: 256 MiB (spec §3.2 step 1, "configurable").
inline constexpr std::uint64_t kNresMaxInput = 256ull << 20;
// Directory entries: 1,000,000 (spec §3.2 step 3, before any allocation).
inline constexpr std::uint32_t kNresMaxEntries = 1'000'000;
// One entry's payload: 256 MiB (spec §3.2 step 8).
inline constexpr std::uint64_t kNresMaxPayload = 256ull << 20;
// Sum of all payloads: 512 MiB (spec §3.2 step 8, the running sum).
inline constexpr std::uint64_t kNresMaxTotalPayload = 512ull << 20;
// Sum of unindexed (gap) bytes kept for lossless writing: 256 MiB (spec §3.2 step 11).
inline constexpr std::uint64_t kNresMaxPreserved = 256ull << 20;

// ---- RsLi (spec §4): the defaults of RsliLimits.
// Whole library: 256 MiB (spec §4.5 "input <= 256 MiB").
inline constexpr std::uint64_t kRsliMaxFile = 256ull * 1024 * 1024;
// Table rows: 1,000,000 (spec §4.5).
inline constexpr std::uint64_t kRsliMaxEntries = 1'000'000;
// One entry's packed bytes: 64 MiB (spec §4.5 "per entry: packed <= 64 MiB").
inline constexpr std::uint32_t kRsliMaxPacked = 64u * 1024 * 1024;
// One entry's unpacked bytes (what a decoder may produce): 128 MiB (spec §4.5).
inline constexpr std::uint32_t kRsliMaxUnpacked = 128u * 1024 * 1024;
// A payload the RsLi editor stores: the reader's unpacked limit, so every edit reads back
// (rsli.edit.too_large).
inline constexpr std::uint64_t kRsliEditMaxPayload = kRsliMaxUnpacked;

// ---- data.tma (spec §6.1, §6.2): counts above them are rejected before any allocation.
// LpString: 64 KiB (spec §1.2, "max 64 KiB in fparkan"); tma.string_too_long.
inline constexpr std::uint32_t kTmaMaxString = 64 * 1024;
// Paths: 16,384 (spec §6.1 path_count).
inline constexpr std::uint32_t kTmaMaxPaths = 16384;
// Clans: 16,384 (spec §6.1 clan_count).
inline constexpr std::uint32_t kTmaMaxClans = 16384;
// Placed objects: 1,000,000 (spec §6.1 object_count).
inline constexpr std::uint32_t kTmaMaxObjects = 1000000;
// Points of one path: 1,000,000 (spec §6.1 PathRecord).
inline constexpr std::uint32_t kTmaMaxPoints = 1000000;
// Spatial groups of one clan: 65,536 (spec §6.2).
inline constexpr std::uint32_t kTmaMaxSpatialGroups = 65536;
// Records of one spatial group: 1,000,000 (spec §6.2).
inline constexpr std::uint32_t kTmaMaxSpatialRecords = 1000000;
// Relations of one clan: 65,536 (spec §6.2).
inline constexpr std::uint32_t kTmaMaxRelations = 65536;
// Properties of one object: 1,000,000 (spec §6.3 property_count).
inline constexpr std::uint32_t kTmaMaxProperties = 1000000;
// Extras: 1,000,000 (spec §6.1 extra_count).
inline constexpr std::uint32_t kTmaMaxExtras = 1000000;

// ---- .scr (spec §20.2): scr.limit.
// Events: 1,000,000 (spec §20.2 "event and instruction counts <= 1,000,000").
inline constexpr std::uint32_t kScrMaxEvents = 1'000'000;
// Instructions of one event: 1,000,000 (spec §20.2).
inline constexpr std::uint32_t kScrMaxInstructions = 1'000'000;
// References of one instruction: 1,000,000 (spec §20.2).
inline constexpr std::uint32_t kScrMaxReferences = 1'000'000;
// An event name: 64 KiB (spec §20.2 "names <= 64 KiB").
inline constexpr std::uint32_t kScrMaxNameLength = 64 * 1024;

// ---- text formats (no spec number: sized far above the real files, small enough for memory).
// VAR declarations of a varset: 4096 (a clan's file holds a few dozen); varset.limit.
inline constexpr std::size_t kVarsetMaxDeclarations = 4096;
// A .fml formula export: 16 MiB; fml.limit.
inline constexpr std::size_t kFmlMaxBytes = 16u << 20;
// Lines of a .fml (split at '\n'): 2^20; fml.limit.
inline constexpr std::size_t kFmlMaxLines = 1u << 20;
// Entries of a Behavior.ini (the real one has a few hundred); behavior_ini.limit.
inline constexpr std::size_t kBehaviorIniMaxEntries = 4096;
// A mission.cfg: 1 MiB (a demo's is a few kilobytes); mission_cfg.limit.
inline constexpr std::size_t kMissionCfgMaxBytes = std::size_t{1} << 20;
// One mission.cfg line, without its ending: 4096 bytes; mission_cfg.limit.
inline constexpr std::size_t kMissionCfgMaxLineBytes = 4096;
// Lines of a mission.cfg: 65,536; mission_cfg.limit.
inline constexpr std::size_t kMissionCfgMaxLines = 65536;
// Lines of a WEAR table: 1,000,000 (spec §1.1 array items; a model's table has tens); wear.limit.
inline constexpr std::size_t kWearMaxLines = 1'000'000;
// A BuildDat.lst: 1 MiB (spec §17.3: 12 categories, 32 paths); build_dat.limit. Content
// detection sniffs only files within it.
inline constexpr std::size_t kBuildDatMaxBytes = std::size_t{1} << 20;

}  // namespace sortie::iron3d
