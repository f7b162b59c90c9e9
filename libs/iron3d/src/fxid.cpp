#include "sortie/iron3d/fxid.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

std::size_t fxid_command_size(std::uint32_t opcode) {
  static constexpr std::array<std::size_t, 11> kSizes = {0, 224, 148, 200, 204, 112, 4, 208, 248, 208, 208};
  return opcode < kSizes.size() ? kSizes[opcode] : 0;
}

std::optional<std::size_t> fxid_reference_offset(std::uint32_t opcode) {
  switch (opcode) {
    case 1:
      return 160;
    case 2:
      return 84;
    case 3:
    case 4:
    case 9:
      return 136;
    case 5:
      return 48;
    case 7:
    case 10:
      return 144;
    case 8:
      return 184;
    default:
      return std::nullopt;
  }
}

core::Result<Fxid> read_fxid(core::ByteView payload, const ReadOptions& options) {
  core::ByteReader r(payload, options.file_name);
  r.set_code_prefix("fxid");
  if (payload.size() < kFxidHeaderSize)
    return core::fail(r.error_at(0, "fxid.size", "FXID payload shorter than its 60-byte header")
                          .in("header")
                          .expect(">= 60 bytes", fmt::format("{} bytes", payload.size())));
  Fxid fx;
  SORTIE_TRY(const std::uint32_t count, r.u32());
  SORTIE_TRY(fx.header.time_mode, r.u32());
  SORTIE_TRY(fx.header.duration_seconds, r.f32());
  SORTIE_TRY(fx.header.phase_jitter, r.f32());
  SORTIE_TRY(fx.header.flags, r.u32());
  SORTIE_TRY(fx.header.settings_id, r.u32());
  for (auto* v : {&fx.header.random_shift, &fx.header.pivot, &fx.header.scale})
    for (auto& f : *v) {
      SORTIE_TRY(f, r.f32());
    }
  // Each command takes at least its 4-byte word: bound the count before reserving.
  if (static_cast<std::uint64_t>(count) * 4 > r.remaining())
    return core::fail(r.error_at(0, "fxid.command_count", "more commands than the payload can hold")
                          .in("command_count")
                          .expect(fmt::format("<= {}", r.remaining() / 4), fmt::format("{}", count)));
  fx.commands.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = r.offset();
    r.set_field(fmt::format("commands[{}]", i));
    if (r.remaining() < 4)
      return core::fail(r.error("fxid.command_eof", "command word missing")
                            .expect("4 bytes", fmt::format("{} bytes left", r.remaining())));
    FxidCommand c;
    SORTIE_TRY(c.word, r.u32());
    const std::size_t size = fxid_command_size(c.opcode());
    if (size == 0)
      return core::fail(r.error_at(at, "fxid.opcode_unknown", "unknown FXID opcode")
                            .in(fmt::format("commands[{}].opcode", i))
                            .expect("1..10", fmt::format("{}", c.opcode())));
    if (size - 4 > r.remaining())
      return core::fail(r.error_at(at, "fxid.command_size", "command runs past the end of the payload")
                            .expect(fmt::format("{} bytes (opcode {})", size, c.opcode()),
                                    fmt::format("{} bytes left", r.remaining() + 4)));
    SORTIE_TRY(auto body, r.bytes(size - 4));
    c.body.assign(body.begin(), body.end());
    fx.commands.push_back(std::move(c));
  }
  r.set_field({});
  if (!r.at_end())
    return core::fail(r.error("fxid.trailing", "trailing bytes after the last FXID command")
                          .expect("end of payload", fmt::format("{} more bytes", r.remaining())));
  return fx;
}

core::Bytes write_fxid(const Fxid& fx) {
  core::ByteWriter w;
  w.u32(static_cast<std::uint32_t>(fx.commands.size()));
  w.u32(fx.header.time_mode);
  w.f32(fx.header.duration_seconds);
  w.f32(fx.header.phase_jitter);
  w.u32(fx.header.flags);
  w.u32(fx.header.settings_id);
  for (const auto* v : {&fx.header.random_shift, &fx.header.pivot, &fx.header.scale})
    for (float f : *v) w.f32(f);
  for (const auto& c : fx.commands) {
    w.u32(c.word);
    w.bytes(core::ByteView(c.body));
  }
  return w.take();
}

std::vector<FxidReference> fxid_references(const Fxid& fx) {
  std::vector<FxidReference> out;
  for (std::size_t i = 0; i < fx.commands.size(); ++i) {
    const auto& c = fx.commands[i];
    const auto off = fxid_reference_offset(c.opcode());
    if (!off || *off - 4 + 64 > c.body.size()) continue;
    FxidReference ref;
    ref.command = i;
    ref.opcode = c.opcode();
    ref.archive_raw.raw.assign(reinterpret_cast<const char*>(c.body.data() + *off - 4), 32);
    ref.name_raw.raw.assign(reinterpret_cast<const char*>(c.body.data() + *off - 4 + 32), 32);
    ref.archive = std::string(detail::ref_text(ref.archive_raw));
    ref.name = std::string(detail::ref_text(ref.name_raw));
    if (ref.archive.empty() && ref.name.empty()) continue;
    out.push_back(std::move(ref));
  }
  return out;
}

core::Result<FxidCommand> make_fxid_command(std::uint32_t opcode, bool enabled, std::string_view archive,
                                            std::string_view name) {
  const std::size_t size = fxid_command_size(opcode);
  if (size == 0)
    return core::fail(
        Diagnostic::error("builder.fxid", "unknown FXID opcode").expect("1..10", fmt::format("{}", opcode)));
  FxidCommand c;
  c.word = opcode | (enabled ? 0x100u : 0u);
  c.body.assign(size - 4, 0);
  if (!archive.empty() || !name.empty()) {
    const auto off = fxid_reference_offset(opcode);
    if (!off)
      return core::fail(Diagnostic::error("builder.fxid", "this opcode has no resource reference")
                            .expect("opcode with a reference", fmt::format("{}", opcode)));
    SORTIE_TRY(auto a, detail::make_fixed(archive, 32, "archive name"));
    SORTIE_TRY(auto n, detail::make_fixed(name, 32, "resource name"));
    std::copy(a.raw.begin(), a.raw.end(), c.body.begin() + static_cast<std::ptrdiff_t>(*off - 4));
    std::copy(n.raw.begin(), n.raw.end(), c.body.begin() + static_cast<std::ptrdiff_t>(*off - 4 + 32));
  }
  return c;
}

core::Json fxid_json(const Fxid& fx) {
  core::Json j;
  j["format"] = "fxid";
  const auto& h = fx.header;
  j["header"] = {{"time_mode", h.time_mode},
                 {"duration_seconds", h.duration_seconds},
                 {"phase_jitter", h.phase_jitter},
                 {"flags", h.flags},
                 {"settings_id", h.settings_id},
                 {"random_shift", h.random_shift},
                 {"pivot", h.pivot},
                 {"scale", h.scale}};
  core::Json cmds = core::Json::array();
  for (const auto& c : fx.commands)
    cmds.push_back({{"word", c.word}, {"opcode", c.opcode()}, {"enabled", c.enabled()}, {"size", c.body.size() + 4}});
  j["commands"] = std::move(cmds);
  core::Json refs = core::Json::array();
  for (const auto& r : fxid_references(fx))
    refs.push_back({{"command", r.command},
                    {"opcode", r.opcode},
                    {"archive", core::fixed_string_json(r.archive_raw)},
                    {"name", core::fixed_string_json(r.name_raw)}});
  j["references"] = std::move(refs);
  return j;
}

namespace {

// No magic in the payload: an extracted entry is recognised by its name (`*.fxid`).
int detect(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".fxid") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<Fxid> kFxidFormat{
    .name = "fxid",
    .description = "Iron3D FXID effect definition (extracted entry, *.fxid)",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics*) { return read_fxid(d, o); },
    .json = &fxid_json,
    .write = [](const Fxid& f) -> core::Result<core::Bytes> { return write_fxid(f); },
};

}  // namespace

FormatInfo fxid_format_info() {
  return format_info<Fxid, kFxidFormat>();
}

}  // namespace sortie::iron3d
