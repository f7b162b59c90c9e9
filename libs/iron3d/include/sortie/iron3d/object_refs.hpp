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

#include "sortie/iron3d/nres.hpp"

namespace sortie::iron3d {

// The whole objects.rlb registry: the NRes archive plus the decoded refs of every entry
// (entry name = prototype key), in physical order.
struct ObjectRegistry {
  NresArchive archive;
  std::vector<std::vector<ObjectRef>> refs;  // refs[i] = records of archive.entries[i]
};
// Every entry payload is decoded (object_refs.size per entry, field "entries[i]").
core::Result<ObjectRegistry> read_object_registry(core::ByteView data, const ReadOptions& options = {});
// Byte-exact for an unchanged registry; changed refs go through the NRes editor.
core::Result<core::Bytes> write_object_registry(const ObjectRegistry& registry);
// Refs of a prototype key: the entry named `key`, else `key.msh` (§7.3 candidates); nullptr if none.
const std::vector<ObjectRef>* find_prototype_refs(const ObjectRegistry& registry, std::string_view key);

// Builder for generated content: a canonical objects.rlb (entry type 0).
struct PrototypeSpec {
  std::string key;
  std::vector<ObjectRef> refs;
};
core::Result<core::Bytes> build_object_registry(const std::vector<PrototypeSpec>& prototypes);

core::Json object_registry_json(const ObjectRegistry& registry);
// "object_refs": objects.rlb (NRes named objects.rlb) or an extracted ObjectRef payload (*.ref).
FormatInfo object_refs_format_info();

}  // namespace sortie::iron3d
