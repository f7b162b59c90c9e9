// data.tma writer and in-code builders. The writer mirrors tma_read.cpp field by field and
// refuses documents the reader would reject for their shape (over-long strings, counts over
// the limits, unknown clan modes); version words and flags are written as stored.
#include <fmt/format.h>

#include <cstring>

#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {
namespace {

using core::Diagnostic;
using core::fail;

std::size_t lp_size(const std::string& s) {
  return 4 + s.size();
}

// Writes into a buffer of exactly tma_encoded_size() bytes. Helpers return bool and keep the
// failure in error_ (a Result per field costs more than the write itself).
class Encoder {
 public:
  explicit Encoder(std::size_t size) : buf_(size), p_(buf_.data()) {}

  bool document(const Tma& t) {
    u32(t.format_version);
    if (!count(t.paths.size(), kTmaMaxPaths, [] { return std::string("paths"); })) return false;
    for (std::size_t i = 0; i < t.paths.size(); ++i) {
      const auto& p = t.paths[i];
      i32(p.id);
      if (!count(p.points.size(), kTmaMaxPoints, [i] { return fmt::format("paths[{}].points", i); })) return false;
      for (const auto& v : p.points) vec3(v);
    }
    u32(t.clan_section_version);
    if (!count(t.clans.size(), kTmaMaxClans, [] { return std::string("clans"); })) return false;
    for (std::size_t i = 0; i < t.clans.size(); ++i)
      if (!clan(t.clans[i], i)) return false;
    u32(t.object_section_version);
    if (!count(t.objects.size(), kTmaMaxObjects, [] { return std::string("objects"); })) return false;
    for (std::size_t i = 0; i < t.objects.size(); ++i)
      if (!object(t.objects[i], i)) return false;
    if (!lp(t.land_path, [] { return std::string("land_path"); })) return false;
    u32(t.mission_flag);
    if (!lp(t.description_raw, [] { return std::string("description_raw"); })) return false;
    u32(t.extra_section_version);
    if (!count(t.extras.size(), kTmaMaxExtras, [] { return std::string("extras"); })) return false;
    for (const auto& e : t.extras) {
      vec3(e.position);
      for (auto word : e.raw) u32(word);
    }
    if (p_ == buf_.data() + buf_.size()) return true;
    error_ = Diagnostic::error("tma.write.internal", "writer and tma_encoded_size disagree (a sortie bug)");
    return false;
  }

  core::Bytes take() { return std::move(buf_); }
  Diagnostic& error() { return error_; }

 private:
  bool clan(const TmaClan& c, std::size_t i) {
    auto at = [i](const char* f) { return [i, f] { return fmt::format("clans[{}].{}", i, f); }; };
    if (!lp(c.name, at("name"))) return false;
    i32(c.raw_id);
    f32(c.anchor_x);
    f32(c.anchor_y);
    if (c.mode > 3) {
      error_ =
          Diagnostic::error("tma.write.clan_mode", fmt::format("clan mode {} has no known layout (known 0..3)", c.mode))
              .in(fmt::format("clans[{}].mode", i))
              .expect("0..3", fmt::format("{}", c.mode));
      return false;
    }
    u32(c.mode);
    if (!lp(c.first_resource, at("first_resource"))) return false;
    if (c.mode == 0) {
      if (!count(c.spatial_groups.size(), kTmaMaxSpatialGroups, at("spatial_groups"))) return false;
      for (std::size_t g = 0; g < c.spatial_groups.size(); ++g) {
        const auto& records = c.spatial_groups[g].records;
        if (!count(records.size(), kTmaMaxSpatialRecords,
                   [i, g] { return fmt::format("clans[{}].spatial_groups[{}]", i, g); }))
          return false;
        for (const auto& rec : records)
          for (float f : rec) f32(f);
      }
    } else {
      i32(c.first_tag);
    }
    if (!lp(c.second_resource, at("second_resource"))) return false;
    i32(c.second_tag);
    if (!count(c.relations.size(), kTmaMaxRelations, at("relations"))) return false;
    for (std::size_t k = 0; k < c.relations.size(); ++k) {
      if (!lp(c.relations[k].other_clan, [i, k] { return fmt::format("clans[{}].relations[{}].other_clan", i, k); }))
        return false;
      i32(c.relations[k].value);
    }
    return true;
  }

  bool object(const TmaObject& o, std::size_t i) {
    auto at = [i](const char* f) { return [i, f] { return fmt::format("objects[{}].{}", i, f); }; };
    u32(o.raw_kind);
    u32(o.flags);
    if (!lp(o.resource_name, at("resource_name"))) return false;
    u32(o.raw_after_resource);
    u32(o.identity_or_clan_raw);
    vec3(o.position);
    vec3(o.orientation);
    vec3(o.scale);
    if (!lp(o.instance_name, at("instance_name"))) return false;
    u32(o.raw_after_name);
    i32(o.link0);
    i32(o.link1);
    u32(o.property_schema_version);
    if (!count(o.properties.size(), kTmaMaxProperties, at("properties"))) return false;
    for (std::size_t k = 0; k < o.properties.size(); ++k) {
      for (auto word : o.properties[k].raw) u32(word);
      if (!lp(o.properties[k].name, [i, k] { return fmt::format("objects[{}].properties[{}].name", i, k); }))
        return false;
    }
    return true;
  }

  void u32(std::uint32_t v) {
    core::store_u32(p_, v);
    p_ += 4;
  }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void vec3(const core::Vec3& v) {
    f32(v.x);
    f32(v.y);
    f32(v.z);
  }

  // Writes the count word after checking it against the reader's limit.
  template <class F>
  bool count(std::size_t n, std::uint32_t limit, F&& field) {
    if (n > limit) [[unlikely]] {
      error_ = Diagnostic::error("tma.write.limit", fmt::format("{} records is over the limit {}", n, limit))
                   .in(field())
                   .expect(fmt::format("<= {}", limit), fmt::format("{}", n));
      return false;
    }
    u32(static_cast<std::uint32_t>(n));
    return true;
  }

  template <class F>
  bool lp(const std::string& s, F&& field) {
    if (s.size() > kTmaMaxString) [[unlikely]] {
      error_ = Diagnostic::error("tma.write.string_too_long",
                                 fmt::format("string of {} bytes is over the 64 KiB limit", s.size()))
                   .in(field())
                   .expect(fmt::format("<= {} bytes", kTmaMaxString), fmt::format("{} bytes", s.size()));
      return false;
    }
    u32(static_cast<std::uint32_t>(s.size()));
    if (!s.empty()) std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
    return true;
  }

  core::Bytes buf_;
  std::uint8_t* p_;
  Diagnostic error_;
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
  if (!e.document(tma)) return fail(std::move(e.error()));
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

TmaObject TmaObject::placed(std::string resource, std::string instance, core::Vec3 pos, core::Vec3 orient,
                            core::Vec3 scl) {
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

TmaPath& Tma::add_path(std::int32_t id, std::vector<core::Vec3> points) {
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
