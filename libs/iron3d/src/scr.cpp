#include "sortie/iron3d/scr.hpp"

#include <fmt/format.h>

#include "asset_util.hpp"

namespace sortie::iron3d {

using core::Diagnostic;

ScrSelector scr_selector(std::uint32_t w0, std::uint32_t handler_count) {
  if (w0 == kScrSentinel) return {ScrSelector::Kind::sentinel, w0};
  if (w0 < handler_count) return {ScrSelector::Kind::handler, w0};
  return {ScrSelector::Kind::unknown, w0};
}

std::string_view to_string(ScrSelector::Kind kind) {
  switch (kind) {
    case ScrSelector::Kind::handler:
      return "handler";
    case ScrSelector::Kind::sentinel:
      return "sentinel";
    case ScrSelector::Kind::unknown:
      return "unknown";
  }
  return "unknown";
}

namespace {

// Rejects `count` above `limit` (scr.limit) and counts whose minimum encoding does not fit the
// bytes left (scr.count), before anything is allocated.
core::Status check_count(const core::ByteReader& r, std::uint64_t count, std::uint64_t min_size, std::uint64_t limit,
                         std::string_view what, std::size_t at) {
  if (count > limit)
    return core::fail(r.error_at(at, "scr.limit", fmt::format("{} above the reader's limit", what))
                          .expect(fmt::format("<= {}", limit), fmt::format("{}", count)));
  if (count * min_size > r.remaining())
    return core::fail(r.error_at(at, "scr.count", fmt::format("{} larger than the bytes left can hold", what))
                          .expect(fmt::format("<= {} ({} bytes each)", r.remaining() / min_size, min_size),
                                  fmt::format("{}", count)));
  return {};
}

core::Result<ScrInstruction> read_instruction(core::ByteReader& r) {
  ScrInstruction ins;
  for (auto& w : ins.words) {
    SORTIE_TRY(w, r.u32());
  }
  const std::size_t at = r.offset();
  SORTIE_TRY(const std::uint32_t ref_count, r.u32());
  // The count plus w6 must still fit after the references.
  if (ref_count > kScrMaxReferences)
    return core::fail(r.error_at(at, "scr.limit", "reference count above the reader's limit")
                          .expect(fmt::format("<= {}", kScrMaxReferences), fmt::format("{}", ref_count)));
  if (static_cast<std::uint64_t>(ref_count) * 4 + 4 > r.remaining())
    return core::fail(r.error_at(at, "scr.count", "reference count larger than the bytes left can hold")
                          .expect(fmt::format("<= {}", r.remaining() >= 4 ? (r.remaining() - 4) / 4 : 0),
                                  fmt::format("{}", ref_count)));
  ins.references.resize(ref_count);
  const std::uint8_t* p = r.cursor();
  for (std::size_t k = 0; k < ins.references.size(); ++k) ins.references[k] = core::load_u32(p + 4 * k);
  SORTIE_CHECK(r.skip(static_cast<std::size_t>(ref_count) * 4));
  SORTIE_TRY(ins.w6, r.u32());
  return ins;
}

}  // namespace

core::Result<ScrReadResult> read_scr(core::ByteView data, const ReadOptions& options) {
  core::ByteReader r(data, options.file_name);
  r.set_code_prefix("scr");
  ScrReadResult out;
  auto& pkg = out.package;
  r.set_field("handler_count");
  SORTIE_TRY(pkg.handler_count, r.u32());
  if (pkg.handler_count != kScrHandlerCount) {
    auto d = r.error_at(0, "scr.version_mismatch", "script package built for another handler table")
                 .expect(fmt::format("{} handlers", kScrHandlerCount), fmt::format("{} handlers", pkg.handler_count));
    SORTIE_CHECK(detail::soft_fail(options, &out.warnings, std::move(d)));
  }
  r.set_field("event_count");
  const std::size_t count_at = r.offset();
  SORTIE_TRY(const std::uint32_t event_count, r.u32());
  // An event is at least name_len + NUL + event_word + instruction_count = 13 bytes.
  SORTIE_CHECK(check_count(r, event_count, 13, kScrMaxEvents, "event count", count_at));
  pkg.events.reserve(event_count);
  for (std::uint32_t e = 0; e < event_count; ++e) {
    ScrEvent ev;
    const std::string field = fmt::format("events[{}]", e);
    r.set_field(field + ".name");
    const std::size_t name_at = r.offset();
    SORTIE_TRY(const std::uint32_t name_len, r.u32());
    if (name_len > kScrMaxNameLength)
      return core::fail(r.error_at(name_at, "scr.limit", "event name longer than the reader's limit")
                            .expect(fmt::format("<= {} bytes", kScrMaxNameLength), fmt::format("{} bytes", name_len)));
    SORTIE_TRY(const auto name, r.bytes(static_cast<std::size_t>(name_len) + 1));
    if (name.back() != 0)
      return core::fail(r.error_at(name_at + 4 + name_len, "scr.name_nul", "event name is not NUL-terminated")
                            .expect("0x00", fmt::format("0x{:02x}", name.back())));
    ev.name.assign(reinterpret_cast<const char*>(name.data()), name_len);
    r.set_field(field + ".event_word");
    SORTIE_TRY(ev.event_word, r.u32());
    r.set_field(field + ".instruction_count");
    const std::size_t ic_at = r.offset();
    SORTIE_TRY(const std::uint32_t instruction_count, r.u32());
    SORTIE_CHECK(
        check_count(r, instruction_count, kScrMinInstructionSize, kScrMaxInstructions, "instruction count", ic_at));
    ev.instructions.reserve(instruction_count);
    for (std::uint32_t i = 0; i < instruction_count; ++i) {
      r.set_field(fmt::format("{}.instructions[{}]", field, i));
      SORTIE_TRY(auto ins, read_instruction(r));
      ev.instructions.push_back(std::move(ins));
    }
    pkg.events.push_back(std::move(ev));
  }
  r.set_field({});
  SORTIE_TRY(const auto rest, r.bytes(r.remaining()));
  pkg.trailing.assign(rest.begin(), rest.end());
  return out;
}

core::Bytes write_scr(const ScrPackage& package) {
  core::ByteWriter w;
  w.u32(package.handler_count);
  w.u32(static_cast<std::uint32_t>(package.events.size()));
  for (const auto& ev : package.events) {
    w.u32(static_cast<std::uint32_t>(ev.name.size()));
    w.bytes(ev.name);
    w.u8(0);
    w.u32(ev.event_word);
    w.u32(static_cast<std::uint32_t>(ev.instructions.size()));
    for (const auto& ins : ev.instructions) {
      for (std::uint32_t word : ins.words) w.u32(word);
      w.u32(static_cast<std::uint32_t>(ins.references.size()));
      for (std::uint32_t ref : ins.references) w.u32(ref);
      w.u32(ins.w6);
    }
  }
  w.bytes(core::ByteView(package.trailing));
  return w.take();
}

ScrSummary scr_summary(const ScrPackage& package) {
  ScrSummary s;
  s.events = package.events.size();
  for (const auto& ev : package.events)
    for (const auto& ins : ev.instructions) {
      ++s.instructions;
      s.references += ins.references.size();
      switch (scr_selector(ins.selector_word(), package.handler_count).kind) {
        case ScrSelector::Kind::handler:
          ++s.handler_selectors;
          break;
        case ScrSelector::Kind::sentinel:
          ++s.sentinels;
          break;
        case ScrSelector::Kind::unknown:
          ++s.unknown_selectors;
          break;
      }
    }
  return s;
}

core::Json scr_json(const ScrPackage& package) {
  core::Json j;
  j["format"] = "scr";
  j["handler_count"] = package.handler_count;
  j["version_ok"] = package.handler_count == kScrHandlerCount;
  core::Json events = core::Json::array();
  for (const auto& ev : package.events) {
    core::Json je;
    je["name"] = core::legacy_text_json(ev.name);
    je["event_word"] = ev.event_word;
    core::Json ins_arr = core::Json::array();
    for (const auto& ins : ev.instructions) {
      const auto sel = scr_selector(ins.selector_word(), package.handler_count);
      core::Json ji;
      ji["words"] = {ins.words[0], ins.words[1], ins.words[2],
                     ins.words[3], ins.words[4], static_cast<std::uint32_t>(ins.references.size()),
                     ins.w6};
      ji["selector"] = {{"kind", std::string(to_string(sel.kind))}, {"value", sel.raw}};
      ji["references"] = ins.references;
      ins_arr.push_back(std::move(ji));
    }
    je["instructions"] = std::move(ins_arr);
    events.push_back(std::move(je));
  }
  j["events"] = std::move(events);
  const auto s = scr_summary(package);
  j["summary"] = {{"events", s.events},
                  {"instructions", s.instructions},
                  {"references", s.references},
                  {"handler_selectors", s.handler_selectors},
                  {"sentinels", s.sentinels},
                  {"unknown_selectors", s.unknown_selectors},
                  {"trailing_bytes", package.trailing.size()}};
  j["trailing_hex"] = core::to_hex(core::ByteView(package.trailing));
  return j;
}

namespace {

int detect(core::ByteView, std::string_view file_name) {
  return detail::has_extension(file_name, ".scr") ? kDetectName : kDetectNone;
}

constexpr FormatAdapter<ScrPackage> kScrFormat{
    .name = "scr",
    .description = "Iron3D compiled AI script package (*.scr)",
    .detect = &detect,
    .read = [](core::ByteView d, const ReadOptions& o, core::Diagnostics* w) -> core::Result<ScrPackage> {
      SORTIE_TRY(auto res, read_scr(d, o));
      if (w) w->insert(w->end(), res.warnings.begin(), res.warnings.end());
      return std::move(res.package);
    },
    .json = &scr_json,
    .write = [](const ScrPackage& p) -> core::Result<core::Bytes> { return write_scr(p); },
    .inspect_warnings = InspectWarnings::always,
};

}  // namespace

FormatInfo scr_format_info() {
  return format_info<ScrPackage, kScrFormat>();
}

}  // namespace sortie::iron3d
