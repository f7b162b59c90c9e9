// data.tma reader (spec §6). Sequential, bounded: every count is checked against its limit
// and against the bytes left before anything is reserved; fixed-size runs of words are taken
// as one bounded chunk and decoded with unchecked loads.
#include <fmt/format.h>

#include <cmath>

#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {
namespace {

using core::ByteReader;
using core::Diagnostic;
using core::fail;
using core::load_f32;
using core::load_i32;
using core::load_u32;
using core::Result;
using core::Status;

// A named field inside a fixed-size chunk, so a truncation names the first field cut off.
struct FieldAt {
  std::size_t offset;
  const char* name;
};

// Minimum encoded sizes, used to bound counts that have no fixed stride.
constexpr std::size_t kMinPath = 8;
constexpr std::size_t kMinClan = 4 + 16 + 16 + 4;  // name LP, prefix, smallest body, relation count
constexpr std::size_t kMinRelation = 8;
constexpr std::size_t kMinObject = 8 + 4 + 44 + 4 + 20;
constexpr std::size_t kMinProperty = 20;

#define TMA_TRY(decl, expr, field_expr)                                               \
  auto SORTIE_CONCAT(tma_try_, __LINE__) = (expr);                                    \
  if (!SORTIE_CONCAT(tma_try_, __LINE__))                                             \
    return fail(std::move(SORTIE_CONCAT(tma_try_, __LINE__)).error().in(field_expr)); \
  decl = std::move(*SORTIE_CONCAT(tma_try_, __LINE__))

#define TMA_CHECK(expr, field_expr)                                                   \
  do {                                                                                \
    auto tma_chk = (expr);                                                            \
    if (!tma_chk) return fail(std::move(tma_chk).error().in(field_expr));             \
  } while (false)

class Decoder {
 public:
  Decoder(core::ByteView data, const TmaReadOptions& options, core::Diagnostics* warnings)
      : r_(data, options.file_name), options_(options), warnings_(warnings) {
    r_.set_code_prefix("tma");
  }

  Result<Tma> document() {
    Tma t;
    SORTIE_CHECK(prologue_and_objects(t));
    SORTIE_CHECK(epilogue(t));
    return t;
  }

  Result<std::string> land_path_only() {
    Tma t;
    SORTIE_CHECK(prologue_and_objects(t));
    std::string land;
    TMA_CHECK(lp(land), "land_path");
    return land;
  }

 private:
  Status prologue_and_objects(Tma& t) {
    TMA_TRY(t.format_version, r_.u32(), "format_version");
    SORTIE_CHECK(version(t.format_version, kTmaFormatVersion, r_.offset() - 4, "format_version", "format"));
    TMA_TRY(const std::uint32_t path_count, r_.u32(), "path_count");
    TMA_CHECK(r_.check_count(path_count, kMinPath, "paths", kTmaMaxPaths), "path_count");
    t.paths.resize(path_count);
    for (std::uint32_t i = 0; i < path_count; ++i) SORTIE_CHECK(path(t.paths[i], i));

    TMA_TRY(t.clan_section_version, r_.u32(), "clan_section_version");
    SORTIE_CHECK(version(t.clan_section_version, kTmaClanSectionVersion, r_.offset() - 4, "clan_section_version",
                         "clan section"));
    TMA_TRY(const std::uint32_t clan_count, r_.u32(), "clan_count");
    TMA_CHECK(r_.check_count(clan_count, kMinClan, "clans", kTmaMaxClans), "clan_count");
    t.clans.resize(clan_count);
    for (std::uint32_t i = 0; i < clan_count; ++i) SORTIE_CHECK(clan(t.clans[i], i));

    TMA_TRY(t.object_section_version, r_.u32(), "object_section_version");
    SORTIE_CHECK(version(t.object_section_version, kTmaObjectSectionVersion, r_.offset() - 4,
                         "object_section_version", "object section"));
    TMA_TRY(const std::uint32_t object_count, r_.u32(), "object_count");
    TMA_CHECK(r_.check_count(object_count, kMinObject, "objects", kTmaMaxObjects), "object_count");
    t.objects.resize(object_count);
    for (std::uint32_t i = 0; i < object_count; ++i) SORTIE_CHECK(object(t.objects[i], i));
    return {};
  }

  Status epilogue(Tma& t) {
    TMA_CHECK(lp(t.land_path), "land_path");
    TMA_TRY(t.mission_flag, r_.u32(), "mission_flag");
    TMA_CHECK(lp(t.description_raw), "description_raw");
    TMA_TRY(t.extra_section_version, r_.u32(), "extra_section_version");
    SORTIE_CHECK(version(t.extra_section_version, kTmaExtraSectionVersion, r_.offset() - 4, "extra_section_version",
                         "extra section"));
    TMA_TRY(const std::uint32_t extra_count, r_.u32(), "extra_count");
    TMA_TRY(auto extra_bytes, r_.check_count(extra_count, 28, "extras", kTmaMaxExtras), "extra_count");
    TMA_TRY(const core::ByteView block, r_.bytes(extra_bytes), "extras");
    t.extras.resize(extra_count);
    const std::uint8_t* p = block.data();
    for (auto& e : t.extras) {
      e.position = vec3(p);
      for (std::size_t k = 0; k < 4; ++k) e.raw[k] = load_u32(p + 12 + 4 * k);
      p += 28;
    }
    TMA_CHECK(r_.require_end("data.tma"), "");
    return {};
  }

  Status path(TmaPath& p, std::uint32_t i) {
    static constexpr FieldAt kFields[] = {{0, "id"}, {4, "point_count"}};
    TMA_TRY(const std::uint8_t* h, chunk(8, kFields), fmt::format("paths[{}].{}", i, cut_field_));
    p.id = load_i32(h);
    const std::uint32_t count = load_u32(h + 4);
    TMA_TRY(auto total, r_.check_count(count, 12, "points", kTmaMaxPoints), fmt::format("paths[{}].point_count", i));
    TMA_TRY(const core::ByteView block, r_.bytes(total), fmt::format("paths[{}].points", i));
    p.points.resize(count);
    for (std::uint32_t k = 0; k < count; ++k) p.points[k] = vec3(block.data() + 12 * std::size_t{k});
    return {};
  }

  Status clan(TmaClan& c, std::uint32_t i) {
    TMA_CHECK(lp(c.name), fmt::format("clans[{}].name", i));
    static constexpr FieldAt kFields[] = {{0, "raw_id"}, {4, "anchor_x"}, {8, "anchor_y"}, {12, "mode"}};
    TMA_TRY(const std::uint8_t* h, chunk(16, kFields), fmt::format("clans[{}].{}", i, cut_field_));
    c.raw_id = load_i32(h);
    c.anchor_x = load_f32(h + 4);
    c.anchor_y = load_f32(h + 8);
    c.mode = load_u32(h + 12);
    if (c.mode > 3)
      return fail(r_.error_at(r_.offset() - 4, "tma.clan.mode_unknown",
                              fmt::format("unknown clan mode {} (known 0..3)", c.mode))
                      .in(fmt::format("clans[{}].mode", i))
                      .expect("0..3", fmt::format("{}", c.mode)));
    TMA_CHECK(lp(c.first_resource), fmt::format("clans[{}].first_resource", i));
    if (c.mode == 0) {
      TMA_TRY(const std::uint32_t groups, r_.u32(), fmt::format("clans[{}].spatial_group_count", i));
      TMA_CHECK(r_.check_count(groups, 4, "spatial groups", kTmaMaxSpatialGroups),
                fmt::format("clans[{}].spatial_group_count", i));
      c.spatial_groups.resize(groups);
      for (std::uint32_t g = 0; g < groups; ++g) {
        TMA_TRY(const std::uint32_t n, r_.u32(), fmt::format("clans[{}].spatial_groups[{}].record_count", i, g));
        TMA_TRY(auto total, r_.check_count(n, 20, "spatial records", kTmaMaxSpatialRecords),
                fmt::format("clans[{}].spatial_groups[{}].record_count", i, g));
        TMA_TRY(const core::ByteView block, r_.bytes(total), fmt::format("clans[{}].spatial_groups[{}]", i, g));
        auto& records = c.spatial_groups[g].records;
        records.resize(n);
        for (std::uint32_t k = 0; k < n; ++k)
          for (std::size_t f = 0; f < 5; ++f) records[k][f] = load_f32(block.data() + 20 * std::size_t{k} + 4 * f);
      }
    } else {
      TMA_TRY(c.first_tag, r_.i32(), fmt::format("clans[{}].first_tag", i));
    }
    TMA_CHECK(lp(c.second_resource), fmt::format("clans[{}].second_resource", i));
    TMA_TRY(c.second_tag, r_.i32(), fmt::format("clans[{}].second_tag", i));
    TMA_TRY(const std::uint32_t relations, r_.u32(), fmt::format("clans[{}].relation_count", i));
    TMA_CHECK(r_.check_count(relations, kMinRelation, "relations", kTmaMaxRelations),
              fmt::format("clans[{}].relation_count", i));
    c.relations.resize(relations);
    for (std::uint32_t k = 0; k < relations; ++k) {
      TMA_CHECK(lp(c.relations[k].other_clan), fmt::format("clans[{}].relations[{}].other_clan", i, k));
      TMA_TRY(c.relations[k].value, r_.i32(), fmt::format("clans[{}].relations[{}].value", i, k));
    }
    return {};
  }

  Status object(TmaObject& o, std::uint32_t i) {
    static constexpr FieldAt kHead[] = {{0, "raw_kind"}, {4, "flags"}};
    TMA_TRY(const std::uint8_t* h, chunk(8, kHead), fmt::format("objects[{}].{}", i, cut_field_));
    o.raw_kind = load_u32(h);
    o.flags = load_u32(h + 4);
    if (o.flags != kTmaObjectFlags) {
      auto d = r_.error_at(r_.offset() - 4, "tma.object.flags",
                           fmt::format("object flags 0x{:08x} differ from the known 0x{:08x}", o.flags,
                                       kTmaObjectFlags))
                   .in(fmt::format("objects[{}].flags", i))
                   .expect(fmt::format("0x{:08x}", kTmaObjectFlags), fmt::format("0x{:08x}", o.flags));
      SORTIE_CHECK(strict_or_warn(std::move(d)));
    }
    TMA_CHECK(lp(o.resource_name), fmt::format("objects[{}].resource_name", i));

    static constexpr FieldAt kBody[] = {{0, "raw_after_resource"}, {4, "identity_or_clan_raw"}, {8, "position"},
                                        {20, "orientation"}, {32, "scale"}};
    TMA_TRY(const std::uint8_t* b, chunk(44, kBody), fmt::format("objects[{}].{}", i, cut_field_));
    o.raw_after_resource = load_u32(b);
    o.identity_or_clan_raw = load_u32(b + 4);
    o.position = vec3(b + 8);
    o.orientation = vec3(b + 20);
    o.scale = vec3(b + 32);
    for (std::size_t k = 0; k < 9; ++k) {
      const float v = load_f32(b + 8 + 4 * k);
      if (std::isfinite(v)) continue;
      static constexpr const char* kNames[] = {"position", "orientation", "scale"};
      auto d = r_.error_at(r_.offset() - 36 + 4 * k, "tma.object.non_finite",
                           fmt::format("non-finite transform component {}", v))
                   .in(fmt::format("objects[{}].{}[{}]", i, kNames[k / 3], k % 3))
                   .expect("a finite float", fmt::format("0x{:08x}", load_u32(b + 8 + 4 * k)));
      SORTIE_CHECK(strict_or_warn(std::move(d)));
    }
    TMA_CHECK(lp(o.instance_name), fmt::format("objects[{}].instance_name", i));

    static constexpr FieldAt kTail[] = {
        {0, "raw_after_name"}, {4, "link0"}, {8, "link1"}, {12, "property_schema_version"}};
    TMA_TRY(const std::uint8_t* t, chunk(16, kTail), fmt::format("objects[{}].{}", i, cut_field_));
    o.raw_after_name = load_u32(t);
    o.link0 = load_i32(t + 4);
    o.link1 = load_i32(t + 8);
    o.property_schema_version = load_u32(t + 12);
    if (o.property_schema_version != kTmaPropertySchemaVersion)
      SORTIE_CHECK(version(o.property_schema_version, kTmaPropertySchemaVersion, r_.offset() - 4,
                           fmt::format("objects[{}].property_schema_version", i), "property schema"));
    TMA_TRY(const std::uint32_t count, r_.u32(), fmt::format("objects[{}].property_count", i));
    TMA_CHECK(r_.check_count(count, kMinProperty, "properties", kTmaMaxProperties),
              fmt::format("objects[{}].property_count", i));
    o.properties.resize(count);
    for (std::uint32_t k = 0; k < count; ++k) SORTIE_CHECK(property(o.properties[k], i, k));
    return {};
  }

  Status property(TmaProperty& p, std::uint32_t obj, std::uint32_t k) {
    static constexpr FieldAt kFields[] = {{0, "raw"}, {16, "name"}};
    TMA_TRY(const std::uint8_t* h, chunk(20, kFields), fmt::format("objects[{}].properties[{}].{}", obj, k, cut_field_));
    for (std::size_t w = 0; w < 4; ++w) p.raw[w] = load_u32(h + 4 * w);
    TMA_CHECK(lp_body(load_u32(h + 16), r_.offset() - 4, p.name), fmt::format("objects[{}].properties[{}].name", obj, k));
    return {};
  }

  // Takes `n` bytes as one bounded read. On truncation `cut_field_` names the first field
  // (from `fields`) that does not fit.
  template <std::size_t N>
  Result<const std::uint8_t*> chunk(std::size_t n, const FieldAt (&fields)[N]) {
    if (r_.remaining() < n) {
      const std::size_t left = r_.remaining();
      cut_field_ = fields[0].name;
      std::size_t at = 0;
      for (const auto& f : fields)
        if (f.offset <= left) {
          cut_field_ = f.name;
          at = f.offset;
        }
      return fail(r_.error_at(r_.offset() + at, "tma.eof", fmt::format("unexpected end of data reading {}", cut_field_))
                      .expect(fmt::format("{} bytes", n - at), fmt::format("{} bytes left", left - at)));
    }
    const std::uint8_t* p = r_.cursor();
    SORTIE_CHECK(r_.skip(n));
    return p;
  }

  Status lp(std::string& out) {
    const std::size_t start = r_.offset();
    SORTIE_TRY(const std::uint32_t len, r_.u32());
    return lp_body(len, start, out);
  }

  // The payload of a length-prefixed string whose length word (at `start`) was just read.
  Status lp_body(std::uint32_t len, std::size_t start, std::string& out) {
    if (len > kTmaMaxString)
      return fail(r_.error_at(start, "tma.string_too_long", fmt::format("string length {} is over the 64 KiB limit", len))
                      .expect(fmt::format("<= {} bytes", kTmaMaxString), fmt::format("{} bytes", len)));
    if (len > r_.remaining())
      return fail(r_.error_at(start, "tma.eof", "length-prefixed string runs past the end of data")
                      .expect(fmt::format("{} bytes", len), fmt::format("{} bytes left", r_.remaining())));
    out.assign(reinterpret_cast<const char*>(r_.cursor()), len);
    return r_.skip(len);
  }

  Status version(std::uint32_t found, std::uint32_t known, std::size_t at, std::string field, std::string_view section) {
    if (found == known) return {};
    auto d = r_.error_at(at, "tma.version", fmt::format("unknown {} version {} (known {})", section, found, known))
                 .in(std::move(field))
                 .expect(fmt::format("{}", known), fmt::format("{}", found));
    return strict_or_warn(std::move(d));
  }

  // Strict: the finding is the error. Compatible: it becomes a warning and reading goes on.
  Status strict_or_warn(Diagnostic d) {
    if (options_.profile == core::Profile::strict) return fail(std::move(d));
    d.severity = core::Severity::warning;
    if (warnings_) warnings_->push_back(std::move(d));
    return {};
  }

  static TmaVec3 vec3(const std::uint8_t* p) { return {load_f32(p), load_f32(p + 4), load_f32(p + 8)}; }

  ByteReader r_;
  const TmaReadOptions& options_;
  core::Diagnostics* warnings_;
  const char* cut_field_ = "";
};

}  // namespace

core::Result<Tma> read_tma(core::ByteView data, const TmaReadOptions& options, core::Diagnostics* warnings) {
  return Decoder(data, options, warnings).document();
}

core::Result<std::string> read_tma_land_path(core::ByteView data, const TmaReadOptions& options) {
  return Decoder(data, options, nullptr).land_path_only();
}

}  // namespace sortie::iron3d
