#pragma once
// TRF tables `*.trf` (spec §22, §20.1; seed 001 "TRF and preload data"): NRes archives in
// MISSIONS\SCRIPTS\ (5 in the demo, 29 / 44 in Parts 1 / 2), named by a clan's second resource
// string in data.tma. The seed knows them as "large tables of names of game prototypes (weapons,
// turrets, buildings and other objects)" whose names resolve through the same resource registry
// as the mission's objects; the meaning of each record is not known.
//
// What sortie reads, and what it does not claim: the container is an NRes archive read and
// written losslessly by the NRes reader (every directory field, payload and gap kept); the
// prototype names are the archive's entry names, in directory order, cut at the NUL and trimmed
// like every other legacy reference name. Payloads, type ids and attributes are kept raw and
// shown, never interpreted. The bundle loader (libs/assets) resolves each name as a prototype key.
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/core/json.hpp"
#include "sortie/iron3d/format.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

struct TrfTable {
  NresArchive archive;  // the container as read
  // The prototype names: entry names in directory order (NUL-cut, ASCII-trimmed).
  [[nodiscard]] std::vector<std::string> names() const;
};

// Codes: the NRes reader's (nres.*) and trf.empty_name (an entry whose name is empty after
// trimming: a table row naming no prototype; strict error, compatible warning).
core::Result<TrfTable> read_trf(core::ByteView data, const ReadOptions& options = {},
                                core::Diagnostics* warnings = nullptr);
// Lossless: an unchanged table gives its bytes back.
core::Bytes write_trf(const TrfTable& table);
// A canonical table of `names` (type id 0, empty payloads) for fixtures and the sample game.
core::Result<core::Bytes> build_trf(const std::vector<std::string>& names);

core::Json trf_json(const TrfTable& table);
FormatInfo trf_format_info();

}  // namespace sortie::iron3d
