#include "sortie/iron3d/object_refs.hpp"

#include <fmt/format.h>

#include <variant>

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

bool is_parent_ref(const ObjectRefView& ref) {
  return core::iequals_ascii(ref.archive, "objects.rlb");
}
bool is_mesh_ref(const ObjectRefView& ref) {
  return core::iends_with_ascii(ref.resource, ".msh");
}

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

namespace sortie::iron3d {

core::Result<ObjectRegistry> read_object_registry(core::ByteView data, const ReadOptions& options) {
  NresReadOptions no;
  no.profile = options.profile;
  no.file_name = options.file_name;
  SORTIE_TRY(auto archive, read_nres(data, no));
  ObjectRegistry reg;
  reg.refs.reserve(archive.size());
  for (std::size_t i = 0; i < archive.size(); ++i) {
    ReadOptions eo = options;
    eo.file_name = fmt::format("{}:{}", options.file_name, archive.entries[i].name.text());
    auto refs = read_object_refs(archive.payload(i), eo);
    if (!refs) {
      auto d = std::move(refs).error();
      d.offset = archive.entries[i].data_offset + d.offset.value_or(0);
      d.file = options.file_name;
      return core::fail(std::move(d).within(fmt::format("entries[{}]", i)));
    }
    reg.refs.push_back(std::move(*refs));
  }
  reg.archive = std::move(archive);
  return reg;
}

core::Result<core::Bytes> write_object_registry(const ObjectRegistry& reg) {
  NresEditor ed(reg.archive);
  bool changed = false;
  for (std::size_t i = 0; i < reg.refs.size() && i < reg.archive.size(); ++i) {
    auto bytes = write_object_refs(reg.refs[i]);
    const auto p = reg.archive.payload(i);
    if (std::equal(p.begin(), p.end(), bytes.begin(), bytes.end())) continue;
    changed = true;
    SORTIE_CHECK(ed.replace(i, std::move(bytes)));
  }
  if (!changed) return write_nres_lossless(reg.archive);
  return ed.encode_lossless_layout();
}

const std::vector<ObjectRef>* find_prototype_refs(const ObjectRegistry& reg, std::string_view key) {
  auto idx = reg.archive.find(key);
  if (!idx && !core::iends_with_ascii(key, ".msh")) idx = reg.archive.find(std::string(key) + ".msh");
  if (!idx || *idx >= reg.refs.size()) return nullptr;
  return &reg.refs[*idx];
}

core::Result<core::Bytes> build_object_registry(const std::vector<PrototypeSpec>& prototypes) {
  NresBuilder b;
  for (const auto& p : prototypes) b.add(0, p.key, write_object_refs(p.refs));
  return b.build();
}

core::Json object_registry_json(const ObjectRegistry& reg) {
  core::Json j;
  j["format"] = "object_refs";
  core::Json arr = core::Json::array();
  for (std::size_t i = 0; i < reg.refs.size(); ++i)
    arr.push_back(
        {{"key", core::fixed_string_json(reg.archive.entries[i].name)}, {"refs", object_refs_json(reg.refs[i])}});
  j["prototypes"] = std::move(arr);
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view file_name) {
  const auto slash = file_name.find_last_of("/\\");
  const auto base = slash == std::string_view::npos ? file_name : file_name.substr(slash + 1);
  // No signature of its own: an NRes archive by its name, or a bare record array by extension.
  if (nres_has_magic(data) && core::iequals_ascii(base, "objects.rlb")) return kDetectName;
  if (!nres_has_magic(data) && detail::has_extension(file_name, ".ref") && data.size() % kObjectRefSize == 0)
    return kDetectName;
  return kDetectNone;
}

// Either shape of the format: the registry archive or one bare record array.
using ObjectRefsFile = std::variant<ObjectRegistry, std::vector<ObjectRef>>;

core::Result<ObjectRefsFile> read(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  if (nres_has_magic(data)) {
    SORTIE_TRY(auto reg, read_object_registry(data, options));
    if (warnings) warnings->insert(warnings->end(), reg.archive.warnings.begin(), reg.archive.warnings.end());
    return ObjectRefsFile{std::move(reg)};
  }
  SORTIE_TRY(auto refs, read_object_refs(data, options));
  return ObjectRefsFile{std::move(refs)};
}

core::Json to_json(const ObjectRefsFile& file) {
  if (const auto* reg = std::get_if<ObjectRegistry>(&file)) return object_registry_json(*reg);
  core::Json j;
  j["format"] = "object_refs";
  j["refs"] = object_refs_json(std::get<std::vector<ObjectRef>>(file));
  return j;
}

core::Result<core::Bytes> write(const ObjectRefsFile& file) {
  if (const auto* reg = std::get_if<ObjectRegistry>(&file)) return write_object_registry(*reg);
  return write_object_refs(std::get<std::vector<ObjectRef>>(file));
}

constexpr FormatAdapter<ObjectRefsFile> kObjectRefsFormat{
    .name = "object_refs",
    .description = "Iron3D objects.rlb prototype registry (NRes of 64-byte ObjectRef records; or one *.ref payload)",
    .detect = &detect,
    .read = &read,
    .json = &to_json,
    .write = &write,
};

}  // namespace

FormatInfo object_refs_format_info() {
  return format_info<ObjectRefsFile, kObjectRefsFormat>();
}

}  // namespace sortie::iron3d
