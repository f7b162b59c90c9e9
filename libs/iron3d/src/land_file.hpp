#pragma once
// Internal glue between the NRes container and the terrain stream codecs.
#include <string_view>
#include <utility>
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

// A terrain file as the format table reads it (FormatAdapter model): the container beside its
// decoded streams; the writer rebuilds the file in the container's layout.
template <typename Model>
struct LandFile {
  NresArchive archive;
  Model decoded;
};

// Container, then `Decode(streams, options, findings)`; findings of both go to `findings`.
template <typename Model, auto Decode>
core::Result<LandFile<Model>> read_land_file(core::ByteView data, const ReadOptions& options,
                                             core::Diagnostics* findings) {
  SORTIE_TRY(auto archive, read_land_container(data, options, findings));
  const auto streams = land_streams(archive);
  SORTIE_TRY(auto decoded, Decode(streams, options, findings));
  return LandFile<Model>{std::move(archive), std::move(decoded)};
}

}  // namespace sortie::iron3d::detail
