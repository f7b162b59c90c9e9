// data.tma writer and in-code builders. The writer mirrors tma_read.cpp field by field and
// refuses documents the reader would reject for their shape (over-long strings, counts over
// the limits, unknown clan modes); version words and flags are written as stored.
#include <fmt/format.h>

#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {
namespace {

using core::Diagnostic;
using core::fail;
using core::Status;

std::size_t lp_size(const std::string& s) { return 4 + s.size(); }

class Encoder {
 public:
  explicit Encoder(std::size_t reserve) : w_(reserve) {}

  Status document(const Tma& t) {
    w_.u32(t.format_version);
    SORTIE_CHECK(count(t.paths.size(), kTmaMaxPaths, "paths"));
    for (std::size_t i = 0; i < t.paths.size(); ++i) {
      const auto& p = t.paths[i];
      w_.i32(p.id);
      SORTIE_CHECK(count(p.points.size(), kTmaMaxPoints, fmt::format("paths[{}].points", i)));
      for (const auto& v : p.points) vec3(v);
    }
    w_.u32(t.clan_section_version);
    SORTIE_CHECK(count(t.clans.size(), kTmaMaxClans, "clans"));
    for (std::size_t i = 0; i < t.clans.size(); ++i) SORTIE_CHECK(clan(t.clans[i], i));
    w_.u32(t.object_section_version);
    SORTIE_CHECK(count(t.objects.size(), kTmaMaxObjects, "objects"));
    for (std::size_t i = 0; i < t.objects.size(); ++i) SORTIE_CHECK(object(t.objects[i], i));
    SORTIE_CHECK(lp(t.land_path, "land_path"));
    w_.u32(t.mission_flag);
    SORTIE_CHECK(lp(t.description_raw, "description_raw"));
    w_.u32(t.extra_section_version);
    SORTIE_CHECK(count(t.extras.size(), kTmaMaxExtras, "extras"));
    for (const auto& e : t.extras) {
      vec3(e.position);
      for (auto word : e.raw) w_.u32(word);
    }
    return {};
  }

  core::Bytes take() { return w_.take(); }

 private:
  Status clan(const TmaClan& c, std::size_t i) {
    SORTIE_CHECK(lp(c.name, fmt::format("clans[{}].name", i)));
    w_.i32(c.raw_id);
    w_.f32(c.anchor_x);
    w_.f32(c.anchor_y);
    if (c.mode > 3)
      return fail(Diagnostic::error("tma.write.clan_mode", fmt::format("clan mode {} has no known layout (known 0..3)", c.mode))
                      .in(fmt::format("clans[{}].mode", i))
                      .expect("0..3", fmt::format("{}", c.mode)));
    w_.u32(c.mode);
    SORTIE_CHECK(lp(c.first_resource, fmt::format("clans[{}].first_resource", i)));
    if (c.mode == 0) {
      SORTIE_CHECK(count(c.spatial_groups.size(), kTmaMaxSpatialGroups, fmt::format("clans[{}].spatial_groups", i)));
      for (std::size_t g = 0; g < c.spatial_groups.size(); ++g) {
        const auto& records = c.spatial_groups[g].records;
        SORTIE_CHECK(count(records.size(), kTmaMaxSpatialRecords, fmt::format("clans[{}].spatial_groups[{}]", i, g)));
        for (const auto& rec : records)
          for (float f : rec) w_.f32(f);
      }
    } else {
      w_.i32(c.first_tag);
    }
    SORTIE_CHECK(lp(c.second_resource, fmt::format("clans[{}].second_resource", i)));
    w_.i32(c.second_tag);
    SORTIE_CHECK(count(c.relations.size(), kTmaMaxRelations, fmt::format("clans[{}].relations", i)));
    for (std::size_t k = 0; k < c.relations.size(); ++k) {
      SORTIE_CHECK(lp(c.relations[k].other_clan, fmt::format("clans[{}].relations[{}].other_clan", i, k)));
      w_.i32(c.relations[k].value);
    }
    return {};
  }

  Status object(const TmaObject& o, std::size_t i) {
    w_.u32(o.raw_kind);
    w_.u32(o.flags);
    SORTIE_CHECK(lp(o.resource_name, fmt::format("objects[{}].resource_name", i)));
    w_.u32(o.raw_after_resource);
    w_.u32(o.identity_or_clan_raw);
    vec3(o.position);
    vec3(o.orientation);
    vec3(o.scale);
    SORTIE_CHECK(lp(o.instance_name, fmt::format("objects[{}].instance_name", i)));
    w_.u32(o.raw_after_name);
    w_.i32(o.link0);
    w_.i32(o.link1);
    w_.u32(o.property_schema_version);
    SORTIE_CHECK(count(o.properties.size(), kTmaMaxProperties, fmt::format("objects[{}].properties", i)));
    for (std::size_t k = 0; k < o.properties.size(); ++k) {
      for (auto word : o.properties[k].raw) w_.u32(word);
      SORTIE_CHECK(lp(o.properties[k].name, fmt::format("objects[{}].properties[{}].name", i, k)));
    }
    return {};
  }

  void vec3(const TmaVec3& v) {
    w_.f32(v.x);
    w_.f32(v.y);
    w_.f32(v.z);
  }

  // Writes the count word after checking it against the reader's limit.
  Status count(std::size_t n, std::uint32_t limit, std::string field) {
    if (n > limit)
      return fail(Diagnostic::error("tma.write.limit", fmt::format("{} records is over the limit {}", n, limit))
                      .in(std::move(field))
                      .expect(fmt::format("<= {}", limit), fmt::format("{}", n)));
    w_.u32(static_cast<std::uint32_t>(n));
    return {};
  }

  Status lp(const std::string& s, std::string_view field) {
    if (s.size() > kTmaMaxString)
      return fail(Diagnostic::error("tma.write.string_too_long",
                                    fmt::format("string of {} bytes is over the 64 KiB limit", s.size()))
                      .in(std::string(field))
                      .expect(fmt::format("<= {} bytes", kTmaMaxString), fmt::format("{} bytes", s.size())));
    w_.lp_string(s);
    return {};
  }

  core::ByteWriter w_;
};

}  // namespace

std::size_t tma_encoded_size(const Tma& t) {
  std::size_t n = 8;
  for (const auto& p : t.paths) n += 8 + 12 * p.points.size();
  n += 8;
  for (const auto& c : t.clans) {
    n += lp_size(c.name) + 16 + lp_size(c.first_resource);
    if (c.mode == 0) {
      n += 4;
      for (const auto& g : c.spatial_groups) n += 4 + 20 * g.records.size();
    } else {
      n += 4;
    }
    n += lp_size(c.second_resource) + 4 + 4;
    for (const auto& r : c.relations) n += lp_size(r.other_clan) + 4;
  }
  n += 8;
  for (const auto& o : t.objects) {
    n += 8 + lp_size(o.resource_name) + 44 + lp_size(o.instance_name) + 20;
    for (const auto& p : o.properties) n += 16 + lp_size(p.name);
  }
  n += lp_size(t.land_path) + 4 + lp_size(t.description_raw) + 8 + 28 * t.extras.size();
  return n;
}

core::Result<core::Bytes> write_tma(const Tma& tma) {
  Encoder e(tma_encoded_size(tma));
  SORTIE_CHECK(e.document(tma));
  return e.take();
}

// ---- builders ----

TmaClan TmaClan::standard(std::string name, std::uint32_t mode, std::array<float, 2> anchor, std::string first_resource,
                          std::int32_t first_tag, std::string second_resource, std::int32_t second_tag) {
  TmaClan c;
  c.name = std::move(name);
  c.anchor_x = anchor[0];
  c.anchor_y = anchor[1];
  c.mode = mode;
  c.first_resource = std::move(first_resource);
  c.first_tag = first_tag;
  c.second_resource = std::move(second_resource);
  c.second_tag = second_tag;
  return c;
}

TmaClan TmaClan::spatial(std::string name, std::array<float, 2> anchor, std::string first_resource,
                         std::vector<TmaSpatialGroup> groups, std::string second_resource, std::int32_t second_tag) {
  TmaClan c;
  c.name = std::move(name);
  c.anchor_x = anchor[0];
  c.anchor_y = anchor[1];
  c.mode = 0;
  c.first_resource = std::move(first_resource);
  c.spatial_groups = std::move(groups);
  c.second_resource = std::move(second_resource);
  c.second_tag = second_tag;
  return c;
}

TmaClan& TmaClan::add_relation(std::string other_clan, std::int32_t value) {
  relations.push_back({std::move(other_clan), value});
  return *this;
}

TmaObject TmaObject::placed(std::string resource, std::string instance, TmaVec3 pos, TmaVec3 orient, TmaVec3 scl) {
  TmaObject o;
  o.resource_name = std::move(resource);
  o.instance_name = std::move(instance);
  o.position = pos;
  o.orientation = orient;
  o.scale = scl;
  return o;
}

TmaProperty& TmaObject::add_property(std::string name, std::array<std::uint32_t, 4> raw) {
  properties.push_back({raw, std::move(name)});
  return properties.back();
}

const TmaProperty* TmaObject::find_property(std::string_view name) const {
  for (const auto& p : properties)
    if (p.name == name) return &p;
  return nullptr;
}

TmaProperty* TmaObject::find_property(std::string_view name) {
  for (auto& p : properties)
    if (p.name == name) return &p;
  return nullptr;
}

TmaPath& Tma::add_path(std::int32_t id, std::vector<TmaVec3> points) {
  paths.push_back({id, std::move(points)});
  return paths.back();
}

TmaClan& Tma::add_clan(TmaClan clan) {
  clans.push_back(std::move(clan));
  return clans.back();
}

TmaObject& Tma::add_object(TmaObject object) {
  objects.push_back(std::move(object));
  return objects.back();
}

TmaExtra& Tma::add_extra(TmaExtra extra) {
  extras.push_back(extra);
  return extras.back();
}

}  // namespace sortie::iron3d
