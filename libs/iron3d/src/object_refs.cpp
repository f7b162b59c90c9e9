#include "sortie/iron3d/object_refs.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"
#include "sortie/core/text.hpp"

namespace sortie::iron3d {

core::Result<std::vector<ObjectRef>> read_object_refs(core::ByteView payload, const ReadOptions& options) {
  core::ByteReader r(payload, options.file_name);
  r.set_code_prefix("object_refs");
  if (payload.size() % kObjectRefSize != 0)
    return core::fail(r.error_at(0, "object_refs.size", "ObjectRef payload is not a multiple of 64 bytes")
                          .in("length")
                          .expect("n x 64 bytes", fmt::format("{} bytes", payload.size())));
  const std::size_t count = payload.size() / kObjectRefSize;
  SORTIE_CHECK(r.check_count(count, kObjectRefSize, "refs"));
  std::vector<ObjectRef> refs;
  refs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    r.set_field(fmt::format("refs[{}]", i));
    ObjectRef ref;
    SORTIE_TRY(ref.archive_name, r.fixed_string(32));
    SORTIE_TRY(ref.resource_name, r.fixed_string(32));
    refs.push_back(std::move(ref));
  }
  r.set_field({});
  SORTIE_CHECK(r.require_end("ObjectRef payload"));
  return refs;
}

core::Bytes write_object_refs(const std::vector<ObjectRef>& refs) {
  core::ByteWriter w(refs.size() * kObjectRefSize);
  for (const auto& ref : refs) {
    w.fixed_string(ref.archive_name);
    w.fixed_string(ref.resource_name);
  }
  return w.take();
}

std::vector<ObjectRefView> object_ref_views(const std::vector<ObjectRef>& refs) {
  std::vector<ObjectRefView> out;
  out.reserve(refs.size());
  for (const auto& ref : refs)
    out.push_back({std::string(detail::ref_text(ref.archive_name)), std::string(detail::ref_text(ref.resource_name))});
  return out;
}

bool is_parent_ref(const ObjectRefView& ref) { return core::iequals_ascii(ref.archive, "objects.rlb"); }
bool is_mesh_ref(const ObjectRefView& ref) { return core::iends_with_ascii(ref.resource, ".msh"); }

core::Result<ObjectRef> make_object_ref(std::string_view archive, std::string_view resource) {
  ObjectRef ref;
  SORTIE_TRY(ref.archive_name, detail::make_fixed(archive, 32, "archive name"));
  SORTIE_TRY(ref.resource_name, detail::make_fixed(resource, 32, "resource name"));
  return ref;
}

core::Json object_refs_json(const std::vector<ObjectRef>& refs) {
  core::Json arr = core::Json::array();
  for (const auto& ref : refs) {
    core::Json e;
    e["archive_name"] = core::fixed_string_json(ref.archive_name);
    e["resource_name"] = core::fixed_string_json(ref.resource_name);
    arr.push_back(std::move(e));
  }
  return arr;
}

}  // namespace sortie::iron3d
