#include "sortie/iron3d/unit_dat.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::ByteReader;
using core::Diagnostic;

core::Result<UnitDat> read_unit_dat(core::ByteView data, const ReadOptions& options, core::Diagnostics* warnings) {
  ByteReader r(data, options.file_name);
  r.set_code_prefix("unit_dat");
  if (data.size() < kUnitDatHeaderSize || (data.size() - kUnitDatHeaderSize) % kUnitComponentSize != 0)
    return core::fail(r.error_at(0, "unit_dat.size", "unit DAT length is not 8 + n x 112 bytes")
                          .in("length")
                          .expect("8 + n x 112 bytes", fmt::format("{} bytes", data.size())));
  UnitDat dat;
  SORTIE_TRY(auto header, r.bytes(kUnitDatHeaderSize));
  std::copy(header.begin(), header.end(), dat.header.begin());
  if (dat.header[0] != 0xF1 || dat.header[1] != 0xF0)
    SORTIE_CHECK(detail::soft_fail(options, warnings,
                                   r.error_at(0, "unit_dat.magic", "unit DAT header does not start with F1 F0")
                                       .in("header")
                                       .expect("f1f0", core::to_hex(header.first(2)))));
  const std::size_t count = (data.size() - kUnitDatHeaderSize) / kUnitComponentSize;
  SORTIE_CHECK(r.check_count(count, kUnitComponentSize, "components"));
  dat.components.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    r.set_field(fmt::format("components[{}]", i));
    UnitComponentRecord c;
    SORTIE_TRY(c.archive_name, r.fixed_string(32));
    SORTIE_TRY(c.resource_name, r.fixed_string(32));
    SORTIE_TRY(c.kind, r.u32());
    SORTIE_TRY(c.parent_or_link, r.i32());
    SORTIE_TRY(c.description, r.fixed_string(32));
    SORTIE_TRY(c.tail0, r.u32());
    SORTIE_TRY(c.tail1, r.u32());
    const std::size_t rec = kUnitDatHeaderSize + i * kUnitComponentSize;
    if (warnings && detail::ref_text(c.resource_name).empty())
      warnings->push_back(Diagnostic::warning("unit_dat.resource_empty", "component record has an empty key")
                              .of(options.file_name)
                              .at(rec + 0x20)
                              .in(fmt::format("components[{}].resource_name", i))
                              .expect("a prototype key", "empty"));
    if (warnings && c.kind != 1)
      warnings->push_back(Diagnostic::warning("unit_dat.kind", "component kind other than 1 (never seen in data)")
                              .of(options.file_name)
                              .at(rec + 0x40)
                              .in(fmt::format("components[{}].kind", i))
                              .expect("1", fmt::format("{}", c.kind)));
    dat.components.push_back(std::move(c));
  }
  r.set_field({});
  SORTIE_CHECK(r.require_end("unit DAT"));
  return dat;
}

core::Bytes write_unit_dat(const UnitDat& dat) {
  core::ByteWriter w(kUnitDatHeaderSize + dat.components.size() * kUnitComponentSize);
  w.bytes(core::ByteView(dat.header));
  for (const auto& c : dat.components) {
    w.fixed_string(c.archive_name);
    w.fixed_string(c.resource_name);
    w.u32(c.kind);
    w.i32(c.parent_or_link);
    w.fixed_string(c.description);
    w.u32(c.tail0);
    w.u32(c.tail1);
  }
  return w.take();
}

std::vector<UnitComponentRef> unit_dat_components(const UnitDat& dat) {
  std::vector<UnitComponentRef> out;
  out.reserve(dat.components.size());
  for (std::size_t i = 0; i < dat.components.size(); ++i)
    out.push_back({std::string(detail::ref_text(dat.components[i].archive_name)),
                   std::string(detail::ref_text(dat.components[i].resource_name)), i});
  return out;
}

core::Result<UnitDat> build_unit_dat(const std::vector<UnitComponentSpec>& components) {
  UnitDat dat;
  for (std::size_t i = 0; i < components.size(); ++i) {
    const auto& s = components[i];
    UnitComponentRecord c;
    SORTIE_TRY(c.archive_name, detail::make_fixed(s.archive, 32, "archive name"));
    SORTIE_TRY(c.resource_name, detail::make_fixed(s.key, 32, "component key"));
    // The description may fill all 32 bytes.
    if (s.description.size() > 32)
      return core::fail(Diagnostic::error("builder.name", "description longer than 32 bytes")
                            .in(fmt::format("components[{}].description", i))
                            .expect("<= 32 bytes", fmt::format("{} bytes", s.description.size())));
    c.description = core::FixedString::make(s.description, 32);
    c.kind = 1;
    c.parent_or_link = static_cast<std::int32_t>(i) - 1;
    dat.components.push_back(std::move(c));
  }
  return dat;
}

UnitComponentRef UnitDatBinding::ref() const {
  return {std::string(detail::ref_text(archive_name)), std::string(detail::ref_text(model_name)), 0};
}

core::Result<UnitDatBinding> read_unit_dat_binding(core::ByteView data, const ReadOptions& options) {
  ByteReader r(data, options.file_name);
  r.set_code_prefix("unit_dat");
  if (data.size() < 0x48)
    return core::fail(r.error_at(0, "unit_dat.binding_size", "binding unit DAT shorter than 0x48 bytes")
                          .in("length")
                          .expect(">= 72 bytes", fmt::format("{} bytes", data.size())));
  SORTIE_TRY(const std::uint32_t magic, r.u32());
  if (magic != 0x0000F0F1u)
    return core::fail(r.error_at(0, "unit_dat.binding_magic", "binding unit DAT must start with F1 F0 00 00")
                          .in("header")
                          .expect("f1f00000", core::to_hex(data.first(4))));
  UnitDatBinding b;
  SORTIE_TRY(b.flags, r.u32());
  SORTIE_TRY(b.archive_name, r.fixed_string(32));
  SORTIE_TRY(b.model_name, r.fixed_string(32));
  if (detail::ref_text(b.archive_name).empty() || detail::ref_text(b.model_name).empty())
    return core::fail(r.error_at(detail::ref_text(b.archive_name).empty() ? 0x08 : 0x28, "unit_dat.binding_empty",
                                 "binding unit DAT names an empty archive or model")
                          .in(detail::ref_text(b.archive_name).empty() ? "archive_name" : "model_name")
                          .expect("a name", "empty"));
  return b;
}

core::Json unit_dat_json(const UnitDat& dat) {
  core::Json j;
  j["format"] = "unit_dat";
  j["header_hex"] = core::to_hex(core::ByteView(dat.header));
  core::Json arr = core::Json::array();
  for (const auto& c : dat.components) {
    core::Json e;
    e["archive_name"] = core::fixed_string_json(c.archive_name);
    e["resource_name"] = core::fixed_string_json(c.resource_name);
    e["kind"] = c.kind;
    e["parent_or_link"] = c.parent_or_link;
    e["description"] = core::fixed_string_json(c.description);
    e["tail0"] = c.tail0;
    e["tail1"] = c.tail1;
    arr.push_back(std::move(e));
  }
  j["components"] = std::move(arr);
  return j;
}

namespace {

int detect(core::ByteView data, std::string_view file_name) {
  if (data.size() < 2 || data[0] != 0xF1 || data[1] != 0xF0) return kDetectNone;
  // The F1 F0 header and a size of whole records identify a unit DAT; a *.dat with the header
  // but a wrong size is still read as one, so the reader says why.
  if (data.size() >= 8 && (data.size() - 8) % kUnitComponentSize == 0) return kDetectContent;
  return detail::has_extension(file_name, ".dat") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<UnitDat> kUnitDatFormat{
    .name = "unit_dat",
    .description = "Iron3D unit DAT: component list of a unit (F1 F0 header + 112-byte records)",
    .detect = &detect,
    .read = &read_unit_dat,
    .json = &unit_dat_json,
    .write = [](const UnitDat& u) -> core::Result<core::Bytes> { return write_unit_dat(u); },
    .inspect_warnings = InspectWarnings::always,
};

}  // namespace

FormatInfo unit_dat_format_info() {
  return format_info<UnitDat, kUnitDatFormat>();
}

}  // namespace sortie::iron3d
