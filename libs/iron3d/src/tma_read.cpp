// data.tma reader (spec §6). Sequential and bounded: every count is checked against its
// limit and against the bytes left before anything is reserved; fixed-size runs of words are
// taken as one bounded chunk and decoded with unchecked loads.
//
// Speed: the hot path keeps its own position over the span and returns bool; only when a
// check fails is core::ByteReader positioned there to produce the diagnostic (so messages and
// codes are core's). Returning Result<> per field cost ~40% of decode time (each success
// value-initialises a Diagnostic-sized union).
#include <fmt/format.h>

#include <cmath>

#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {
namespace {

using core::ByteReader;
using core::Diagnostic;
using core::load_f32;
using core::load_i32;
using core::load_u32;

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

class Decoder {
 public:
  Decoder(core::ByteView data, const TmaReadOptions& options, core::Diagnostics* warnings)
      : data_(data.data()), size_(data.size()), r_(data, options.file_name), options_(options), warnings_(warnings) {
    r_.set_code_prefix("tma");
  }

  core::Result<Tma> document() {
    Tma t;
    if (!prologue_and_objects(t) || !epilogue(t)) return core::fail(std::move(error_));
    return t;
  }

  core::Result<std::string> land_path_only() {
    Tma t;
    std::string land;
    if (!prologue_and_objects(t) || !lp(land, [] { return std::string("land_path"); }))
      return core::fail(std::move(error_));
    return land;
  }

 private:
  static auto named(const char* s) {
    return [s] { return std::string(s); };
  }

  bool prologue_and_objects(Tma& t) {
    std::uint32_t n = 0;
    if (!u32(t.format_version, named("format_version"))) return false;
    if (!version(t.format_version, kTmaFormatVersion, pos_ - 4, named("format_version"), "format")) return false;
    if (!u32(n, named("path_count")) || !count(n, kMinPath, "paths", kTmaMaxPaths, named("path_count"))) return false;
    t.paths.resize(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (!path(t.paths[i], i)) return false;

    if (!u32(t.clan_section_version, named("clan_section_version"))) return false;
    if (!version(t.clan_section_version, kTmaClanSectionVersion, pos_ - 4, named("clan_section_version"),
                 "clan section"))
      return false;
    if (!u32(n, named("clan_count")) || !count(n, kMinClan, "clans", kTmaMaxClans, named("clan_count"))) return false;
    t.clans.resize(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (!clan(t.clans[i], i)) return false;

    if (!u32(t.object_section_version, named("object_section_version"))) return false;
    if (!version(t.object_section_version, kTmaObjectSectionVersion, pos_ - 4, named("object_section_version"),
                 "object section"))
      return false;
    if (!u32(n, named("object_count")) || !count(n, kMinObject, "objects", kTmaMaxObjects, named("object_count")))
      return false;
    t.objects.resize(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (!object(t.objects[i], i)) return false;
    return true;
  }

  bool epilogue(Tma& t) {
    std::uint32_t n = 0;
    if (!lp(t.land_path, named("land_path")) || !u32(t.mission_flag, named("mission_flag")) ||
        !lp(t.description_raw, named("description_raw")) ||
        !u32(t.extra_section_version, named("extra_section_version")))
      return false;
    if (!version(t.extra_section_version, kTmaExtraSectionVersion, pos_ - 4, named("extra_section_version"),
                 "extra section"))
      return false;
    if (!u32(n, named("extra_count")) || !count(n, 28, "extras", kTmaMaxExtras, named("extra_count"))) return false;
    t.extras.resize(n);
    const std::uint8_t* p = take(28 * std::size_t{n});
    for (auto& e : t.extras) {
      e.position = vec3(p);
      for (std::size_t k = 0; k < 4; ++k) e.raw[k] = load_u32(p + 12 + 4 * k);
      p += 28;
    }
    if (pos_ != size_) {
      sync();
      return failed(r_.require_end("data.tma"), named(""));
    }
    return true;
  }

  bool path(TmaPath& p, std::uint32_t i) {
    static constexpr FieldAt kFields[] = {{0, "id"}, {4, "point_count"}};
    const std::uint8_t* h = chunk(8, kFields, [&] { return fmt::format("paths[{}].{}", i, cut_field_); });
    if (!h) return false;
    p.id = load_i32(h);
    const std::uint32_t n = load_u32(h + 4);
    if (!count(n, 12, "points", kTmaMaxPoints, [&] { return fmt::format("paths[{}].point_count", i); })) return false;
    p.points.resize(n);
    const std::uint8_t* b = take(12 * std::size_t{n});
    for (std::uint32_t k = 0; k < n; ++k) p.points[k] = vec3(b + 12 * std::size_t{k});
    return true;
  }

  bool clan(TmaClan& c, std::uint32_t i) {
    auto at = [i](const char* f) { return [i, f] { return fmt::format("clans[{}].{}", i, f); }; };
    if (!lp(c.name, at("name"))) return false;
    static constexpr FieldAt kFields[] = {{0, "raw_id"}, {4, "anchor_x"}, {8, "anchor_y"}, {12, "mode"}};
    const std::uint8_t* h = chunk(16, kFields, [&] { return fmt::format("clans[{}].{}", i, cut_field_); });
    if (!h) return false;
    c.raw_id = load_i32(h);
    c.anchor_x = load_f32(h + 4);
    c.anchor_y = load_f32(h + 8);
    c.mode = load_u32(h + 12);
    if (c.mode > 3) {
      error_ = r_.error_at(pos_ - 4, "tma.clan.mode_unknown", fmt::format("unknown clan mode {} (known 0..3)", c.mode))
                   .in(fmt::format("clans[{}].mode", i))
                   .expect("0..3", fmt::format("{}", c.mode));
      return false;
    }
    if (!lp(c.first_resource, at("first_resource"))) return false;
    if (c.mode == 0) {
      std::uint32_t groups = 0;
      if (!u32(groups, at("spatial_group_count")) ||
          !count(groups, 4, "spatial groups", kTmaMaxSpatialGroups, at("spatial_group_count")))
        return false;
      c.spatial_groups.resize(groups);
      for (std::uint32_t g = 0; g < groups; ++g) {
        auto rc = [i, g] { return fmt::format("clans[{}].spatial_groups[{}].record_count", i, g); };
        std::uint32_t n = 0;
        if (!u32(n, rc) || !count(n, 20, "spatial records", kTmaMaxSpatialRecords, rc)) return false;
        auto& records = c.spatial_groups[g].records;
        records.resize(n);
        const std::uint8_t* b = take(20 * std::size_t{n});
        for (std::uint32_t k = 0; k < n; ++k)
          for (std::size_t f = 0; f < 5; ++f) records[k][f] = load_f32(b + 20 * std::size_t{k} + 4 * f);
      }
    } else {
      if (!i32(c.first_tag, at("first_tag"))) return false;
    }
    std::uint32_t relations = 0;
    if (!lp(c.second_resource, at("second_resource")) || !i32(c.second_tag, at("second_tag")) ||
        !u32(relations, at("relation_count")) ||
        !count(relations, kMinRelation, "relations", kTmaMaxRelations, at("relation_count")))
      return false;
    c.relations.resize(relations);
    for (std::uint32_t k = 0; k < relations; ++k) {
      if (!lp(c.relations[k].other_clan, [i, k] { return fmt::format("clans[{}].relations[{}].other_clan", i, k); }) ||
          !i32(c.relations[k].value, [i, k] { return fmt::format("clans[{}].relations[{}].value", i, k); }))
        return false;
    }
    return true;
  }

  bool object(TmaObject& o, std::uint32_t i) {
    auto at = [i](const char* f) { return [i, f] { return fmt::format("objects[{}].{}", i, f); }; };
    auto cut = [&] { return fmt::format("objects[{}].{}", i, cut_field_); };
    static constexpr FieldAt kHead[] = {{0, "raw_kind"}, {4, "flags"}};
    const std::uint8_t* h = chunk(8, kHead, cut);
    if (!h) return false;
    o.raw_kind = load_u32(h);
    o.flags = load_u32(h + 4);
    if (o.flags != kTmaObjectFlags) {
      auto d =
          r_.error_at(pos_ - 4, "tma.object.flags",
                      fmt::format("object flags 0x{:08x} differ from the known 0x{:08x}", o.flags, kTmaObjectFlags))
              .in(fmt::format("objects[{}].flags", i))
              .expect(fmt::format("0x{:08x}", kTmaObjectFlags), fmt::format("0x{:08x}", o.flags));
      if (!strict_or_warn(std::move(d))) return false;
    }
    if (!lp(o.resource_name, at("resource_name"))) return false;

    static constexpr FieldAt kBody[] = {
        {0, "raw_after_resource"}, {4, "identity_or_clan_raw"}, {8, "position"}, {20, "orientation"}, {32, "scale"}};
    const std::uint8_t* b = chunk(44, kBody, cut);
    if (!b) return false;
    o.raw_after_resource = load_u32(b);
    o.identity_or_clan_raw = load_u32(b + 4);
    o.position = vec3(b + 8);
    o.orientation = vec3(b + 20);
    o.scale = vec3(b + 32);
    for (std::size_t k = 0; k < 9; ++k) {
      const float v = load_f32(b + 8 + 4 * k);
      if (std::isfinite(v)) [[likely]]
        continue;
      static constexpr const char* kNames[] = {"position", "orientation", "scale"};
      auto d =
          r_.error_at(pos_ - 36 + 4 * k, "tma.object.non_finite", fmt::format("non-finite transform component {}", v))
              .in(fmt::format("objects[{}].{}[{}]", i, kNames[k / 3], k % 3))
              .expect("a finite float", fmt::format("0x{:08x}", load_u32(b + 8 + 4 * k)));
      if (!strict_or_warn(std::move(d))) return false;
    }
    if (!lp(o.instance_name, at("instance_name"))) return false;

    static constexpr FieldAt kTail[] = {
        {0, "raw_after_name"}, {4, "link0"}, {8, "link1"}, {12, "property_schema_version"}};
    const std::uint8_t* t = chunk(16, kTail, cut);
    if (!t) return false;
    o.raw_after_name = load_u32(t);
    o.link0 = load_i32(t + 4);
    o.link1 = load_i32(t + 8);
    o.property_schema_version = load_u32(t + 12);
    if (o.property_schema_version != kTmaPropertySchemaVersion &&
        !version(o.property_schema_version, kTmaPropertySchemaVersion, pos_ - 4, at("property_schema_version"),
                 "property schema"))
      return false;
    std::uint32_t n = 0;
    if (!u32(n, at("property_count")) || !count(n, kMinProperty, "properties", kTmaMaxProperties, at("property_count")))
      return false;
    o.properties.resize(n);
    for (std::uint32_t k = 0; k < n; ++k) {
      auto& p = o.properties[k];
      static constexpr FieldAt kFields[] = {{0, "raw"}, {16, "name"}};
      const std::uint8_t* w =
          chunk(20, kFields, [&] { return fmt::format("objects[{}].properties[{}].{}", i, k, cut_field_); });
      if (!w) return false;
      for (std::size_t q = 0; q < 4; ++q) p.raw[q] = load_u32(w + 4 * q);
      if (!lp_body(load_u32(w + 16), pos_ - 4, p.name,
                   [i, k] { return fmt::format("objects[{}].properties[{}].name", i, k); }))
        return false;
    }
    return true;
  }

  // ---- bounded primitives ----

  [[nodiscard]] std::size_t remaining() const { return size_ - pos_; }

  // Moves past `n` bytes already bounded by the caller.
  const std::uint8_t* take(std::size_t n) {
    const std::uint8_t* p = data_ + pos_;
    pos_ += n;
    return p;
  }

  // Puts ByteReader at our position, so its diagnostics carry the right offset.
  void sync() { (void)r_.seek(pos_); }

  // Records the error of a failed core call, located at `field`.
  template <class R, class F>
  bool failed(R&& result, F&& field) {
    error_ = std::move(result).error().in(field());
    return false;
  }

  template <class F>
  bool u32(std::uint32_t& out, F&& field) {
    if (remaining() < 4) [[unlikely]] {
      sync();
      return failed(r_.u32(), field);
    }
    out = load_u32(take(4));
    return true;
  }

  template <class F>
  bool i32(std::int32_t& out, F&& field) {
    std::uint32_t v = 0;
    if (!u32(v, field)) return false;
    out = static_cast<std::int32_t>(v);
    return true;
  }

  // count <= limit and count * stride <= bytes left; ByteReader::check_count words the failure.
  template <class F>
  bool count(std::uint32_t n, std::size_t stride, std::string_view what, std::uint32_t limit, F&& field) {
    if (n <= limit && std::uint64_t{n} * stride <= remaining()) [[likely]]
      return true;
    sync();
    auto r = r_.check_count(n, stride, what, limit);
    return r ? true : failed(std::move(r), field);
  }

  // Takes `n` bytes as one bounded read. On truncation `cut_field_` names the first field
  // (from `fields`) that does not fit; `field` then formats the path.
  template <std::size_t N, class F>
  const std::uint8_t* chunk(std::size_t n, const FieldAt (&fields)[N], F&& field) {
    if (remaining() >= n) [[likely]]
      return take(n);
    const std::size_t left = remaining();
    std::size_t at = 0;
    cut_field_ = fields[0].name;
    for (const auto& f : fields)
      if (f.offset <= left) {
        cut_field_ = f.name;
        at = f.offset;
      }
    error_ = r_.error_at(pos_ + at, "tma.eof", fmt::format("unexpected end of data reading {}", cut_field_))
                 .expect(fmt::format("{} bytes", n - at), fmt::format("{} bytes left", left - at))
                 .in(field());
    return nullptr;
  }

  template <class F>
  bool lp(std::string& out, F&& field) {
    const std::size_t start = pos_;
    std::uint32_t len = 0;
    if (!u32(len, field)) return false;
    return lp_body(len, start, out, field);
  }

  // The payload of a length-prefixed string whose length word (at `start`) was just read.
  template <class F>
  bool lp_body(std::uint32_t len, std::size_t start, std::string& out, F&& field) {
    if (len > kTmaMaxString) [[unlikely]] {
      error_ = r_.error_at(start, "tma.string_too_long", fmt::format("string length {} is over the 64 KiB limit", len))
                   .expect(fmt::format("<= {} bytes", kTmaMaxString), fmt::format("{} bytes", len))
                   .in(field());
      return false;
    }
    if (len > remaining()) [[unlikely]] {
      error_ = r_.error_at(start, "tma.eof", "length-prefixed string runs past the end of data")
                   .expect(fmt::format("{} bytes", len), fmt::format("{} bytes left", remaining()))
                   .in(field());
      return false;
    }
    out.assign(reinterpret_cast<const char*>(take(len)), len);
    return true;
  }

  template <class F>
  bool version(std::uint32_t found, std::uint32_t known, std::size_t at, F&& field, std::string_view section) {
    if (found == known) return true;
    auto d = r_.error_at(at, "tma.version", fmt::format("unknown {} version {} (known {})", section, found, known))
                 .in(field())
                 .expect(fmt::format("{}", known), fmt::format("{}", found));
    return strict_or_warn(std::move(d));
  }

  // Strict: the finding is the error. Compatible: it becomes a warning and reading goes on.
  bool strict_or_warn(Diagnostic d) {
    if (options_.profile == core::Profile::strict) {
      error_ = std::move(d);
      return false;
    }
    d.severity = core::Severity::warning;
    if (warnings_) warnings_->push_back(std::move(d));
    return true;
  }

  static core::Vec3 vec3(const std::uint8_t* p) { return {load_f32(p), load_f32(p + 4), load_f32(p + 8)}; }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  ByteReader r_;  // diagnostics only (positioned by sync() on failure)
  const TmaReadOptions& options_;
  core::Diagnostics* warnings_;
  Diagnostic error_;
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
