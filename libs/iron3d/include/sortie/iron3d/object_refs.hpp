#pragma once
// objects.rlb ObjectRef records (spec §7.1): the payload of each registry entry (entry name =
// prototype key) is n x 64 bytes {archive_name[32], resource_name[32]}. Record order matters.
#include <string>
#include <vector>

#include "sortie/core/bytes.hpp"
#include "sortie/core/diagnostic.hpp"
#include "sortie/iron3d/format.hpp"

namespace sortie::iron3d {

inline constexpr std::size_t kObjectRefSize = 64;

struct ObjectRef {
  core::FixedString archive_name;   // 32 bytes, tail after NUL kept
  core::FixedString resource_name;  // 32 bytes
  bool operator==(const ObjectRef&) const = default;
};

// Typed view: (archive, resource) NUL-cut and ASCII-trimmed as the resolver reads them.
struct ObjectRefView {
  std::string archive;
  std::string resource;
  bool operator==(const ObjectRefView&) const = default;
};

// Codes: object_refs.size (payload not a multiple of 64). Zero records is valid.
core::Result<std::vector<ObjectRef>> read_object_refs(core::ByteView payload, const ReadOptions& options = {});
core::Bytes write_object_refs(const std::vector<ObjectRef>& refs);

std::vector<ObjectRefView> object_ref_views(const std::vector<ObjectRef>& refs);
// True when the ref names a parent prototype (archive is exactly objects.rlb, ASCII case-insensitive).
bool is_parent_ref(const ObjectRefView& ref);
// True when the resource ends with ".msh" (case-insensitive): a geometry candidate (§7.3 step 6).
bool is_mesh_ref(const ObjectRefView& ref);

// Builder: names must fit 31 bytes (zero-filled fields).
core::Result<ObjectRef> make_object_ref(std::string_view archive, std::string_view resource);

core::Json object_refs_json(const std::vector<ObjectRef>& refs);

}  // namespace sortie::iron3d
