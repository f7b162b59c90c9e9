#pragma once
// CTLD control resource (`*.ctl`, spec §22, seed 001 "CTLD и physical resources"): only the
// part whose meaning is proven is typed; every other byte is kept raw.
//
//   +0      u32 counts[5]                   S, M, T, and two more (meaning unknown)
//   +20     raw bytes up to row_start       shape records etc. (unknown, kept raw)
//   row_start = 128 + S * (156 + 16 * M) + 4 * S * S
//   row_start + 36 * i, i < T: control row
//            +0x00 i32 node id, +0x04 f32 endpoint frame A, +0x08 f32 endpoint frame B,
//            +0x0C f32 initial blend, +0x10..+0x1F unknown (raw), +0x20 u32 flags
//   after the rows: raw tail up to the end of the file
//
// Example (fr_l_plant.ctl): counts [14, 0, 5, 11, 13] -> row_start 3096 (0xC18), rows end at
// 0xCCC. A file too short for its header, its row table or whose counts overflow is an error.
//
// Pose evaluation (Control.dll RVA 0x9950 / 0x99C4..0x9A66, AniMesh RVA 0x8BF2): for each row
// in source order, flags & 4 skips the row before any float is read; flags & 1 wraps the blend
// once (> 1: minus 1; < 0: plus 1), otherwise the blend is clamped to [0, 1]; then flags & 2
// inverts it (1 - blend); frame = (1 - blend) * A + blend * B. A repeated node id keeps source
// order, so the last included row gives the node's frame. Poses belong to component instances:
// two instances sharing one CTLD (one prepared visual) get separate pose records.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d {

inline constexpr std::size_t kCtldCountsSize = 20;
inline constexpr std::size_t kCtldRowSize = 36;
inline constexpr std::uint32_t kCtldFlagWrap = 0x1;
inline constexpr std::uint32_t kCtldFlagInvert = 0x2;
inline constexpr std::uint32_t kCtldFlagSkip = 0x4;

// 128 + S * (156 + 16 * M) + 4 * S * S in 64 bits; nullopt when it overflows.
std::optional<std::uint64_t> ctld_row_start(std::uint32_t s, std::uint32_t m);

struct CtldRow {
  std::array<std::uint8_t, kCtldRowSize> raw{};
  [[nodiscard]] std::int32_t node_id() const { return core::load_i32(raw.data()); }
  [[nodiscard]] float endpoint_a() const { return core::load_f32(raw.data() + 0x04); }
  [[nodiscard]] float endpoint_b() const { return core::load_f32(raw.data() + 0x08); }
  [[nodiscard]] float blend() const { return core::load_f32(raw.data() + 0x0C); }
  [[nodiscard]] std::uint32_t flags() const { return core::load_u32(raw.data() + 0x20); }
  bool operator==(const CtldRow&) const = default;
};
// A row with the typed fields set and the unknown bytes zero.
CtldRow make_ctld_row(std::int32_t node_id, float a, float b, float blend, std::uint32_t flags);

struct Ctld {
  std::array<std::uint32_t, 5> counts{};  // counts[2] == rows.size()
  core::Bytes prefix;                     // bytes 20 .. row_start
  std::vector<CtldRow> rows;
  core::Bytes tail;                                                      // bytes after the last row
  [[nodiscard]] std::uint32_t shape_count() const { return counts[0]; }  // S
  [[nodiscard]] std::uint32_t m_count() const { return counts[1]; }      // M
  bool operator==(const Ctld&) const = default;
};

// Codes: ctld.size (shorter than the five counts), ctld.row_start (row table start overflows
// or lies past the end), ctld.rows (T rows of 36 bytes do not fit).
core::Result<Ctld> read_ctld(core::ByteView data, const ReadOptions& options = {});
core::Bytes write_ctld(const Ctld& ctld);

// Builder for fixtures: counts {S, M, rows.size(), c3, c4}, zero prefix of the right size.
Ctld build_ctld(std::uint32_t s, std::uint32_t m, std::vector<CtldRow> rows, std::uint32_t c3 = 0, std::uint32_t c4 = 0,
                core::Bytes tail = {});

// The blend after the flag rules (flags & 4 is the caller's business: the row is skipped).
float ctld_normalize_blend(float blend, std::uint32_t flags);

struct CtldNodeFrame {
  std::int32_t node_id = 0;
  std::size_t row = 0;  // index of the row that gave the frame (the last included one)
  float blend = 0.0f;   // normalized
  float frame = 0.0f;
  bool operator==(const CtldNodeFrame&) const = default;
};

struct CtldPose {
  std::vector<CtldNodeFrame> nodes;  // one per node id, in order of first appearance
  std::size_t skipped_rows = 0;      // rows with flags & 4
  [[nodiscard]] const CtldNodeFrame* find(std::int32_t node_id) const;
  bool operator==(const CtldPose&) const = default;
};
CtldPose evaluate_ctld_pose(const Ctld& ctld);

// Per-instance binding: every component instance gets its own pose record, evaluated from the
// instance's CTLD, even when several instances share one CTLD object.
struct CtldInstance {
  std::uint64_t instance_id = 0;
  std::shared_ptr<const Ctld> ctld;
};
struct CtldInstancePose {
  std::uint64_t instance_id = 0;
  CtldPose pose;
};
std::vector<CtldInstancePose> bind_ctld_poses(std::span<const CtldInstance> instances);

core::Json ctld_json(const Ctld& ctld);
FormatInfo ctld_format_info();

}  // namespace sortie::iron3d
