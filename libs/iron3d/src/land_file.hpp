#pragma once
// Internal glue between the NRes container and the terrain stream codecs.
#include <string_view>
#include <vector>

#include "sortie/iron3d/land_stream.hpp"
#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d::detail {

core::Result<NresArchive> read_land_container(core::ByteView file, const ReadOptions& options,
                                              core::Diagnostics* findings);
std::vector<LandStream> land_streams(const NresArchive& archive);
core::Result<core::Bytes> build_land_container(const std::vector<LandStreamOut>& streams);
// Re-encodes into the layout (gaps, padding, payload placement) of `original`.
core::Result<core::Bytes> rebuild_land_container(const std::vector<LandStreamOut>& streams, const NresArchive& original,
                                                 std::string_view code_prefix);
// True when the last path component equals `name` (ASCII case-insensitive).
bool file_name_is(std::string_view path, std::string_view name);

}  // namespace sortie::iron3d::detail
