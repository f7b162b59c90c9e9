// Land.msh stream codec: the nine typed streams and their checks (spec §15).
#include "sortie/iron3d/land_msh.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

namespace sortie::iron3d {

using core::Diagnostic;
using core::fail;
using core::load_f32;
using core::load_u16;
using core::load_u32;
using core::store_u16;
using core::store_u32;

namespace {

constexpr std::size_t kNodeStride = 38;
constexpr std::size_t kSlotStride = 68;
constexpr std::size_t kFaceStride = 28;

static_assert(sizeof(PackedNormal) == 4 && sizeof(PackedUv) == 4 && sizeof(MaterialPair) == 4);
static_assert(sizeof(TerrainSlot68) == kSlotStride && offsetof(TerrainSlot68, aabb_min) == 8 &&
              offsetof(TerrainSlot68, sphere_radius) == 44 && offsetof(TerrainSlot68, tail) == 48);
static_assert(sizeof(TerrainFace28) == kFaceStride && offsetof(TerrainFace28, vertices) == 8 &&
              offsetof(TerrainFace28, neighbours) == 14 && offsetof(TerrainFace28, tail) == 20);

// ---- one description per record (read and write side by side) ----

void put_f32(std::uint8_t* p, float v) {
  store_u32(p, std::bit_cast<std::uint32_t>(v));
}
core::Vec3 get_vec3(const std::uint8_t* p) {
  return {load_f32(p), load_f32(p + 4), load_f32(p + 8)};
}
void put_vec3(std::uint8_t* p, const core::Vec3& v) {
  put_f32(p, v.x);
  put_f32(p + 4, v.y);
  put_f32(p + 8, v.z);
}

void decode_position(const std::uint8_t* p, core::Vec3& v) {
  v = get_vec3(p);
}
void encode_position(std::uint8_t* p, const core::Vec3& v) {
  put_vec3(p, v);
}
void decode_normal(const std::uint8_t* p, PackedNormal& n) {
  n = {static_cast<std::int8_t>(p[0]), static_cast<std::int8_t>(p[1]), static_cast<std::int8_t>(p[2]),
       static_cast<std::int8_t>(p[3])};
}
void encode_normal(std::uint8_t* p, const PackedNormal& n) {
  p[0] = static_cast<std::uint8_t>(n.x);
  p[1] = static_cast<std::uint8_t>(n.y);
  p[2] = static_cast<std::uint8_t>(n.z);
  p[3] = static_cast<std::uint8_t>(n.w);
}
void decode_uv(const std::uint8_t* p, PackedUv& t) {
  t = {core::load_i16(p), core::load_i16(p + 2)};
}
void encode_uv(std::uint8_t* p, const PackedUv& t) {
  store_u16(p, static_cast<std::uint16_t>(t.u));
  store_u16(p + 2, static_cast<std::uint16_t>(t.v));
}
void decode_pair(const std::uint8_t* p, MaterialPair& m) {
  m = {load_u16(p), load_u16(p + 2)};
}
void encode_pair(std::uint8_t* p, const MaterialPair& m) {
  store_u16(p, m.material_lookup);
  store_u16(p + 2, m.flags);
}
void decode_word(const std::uint8_t* p, std::uint32_t& w) {
  w = load_u32(p);
}
void encode_word(std::uint8_t* p, const std::uint32_t& w) {
  store_u32(p, w);
}
void decode_slot(const std::uint8_t* p, TerrainSlot68& s) {
  s.pair_table_index = load_u16(p);
  s.pair_count = load_u16(p + 2);
  s.word4 = load_u16(p + 4);
  s.word6 = load_u16(p + 6);
  s.aabb_min = get_vec3(p + 8);
  s.aabb_max = get_vec3(p + 20);
  s.sphere_center = get_vec3(p + 32);
  s.sphere_radius = load_f32(p + 44);
  for (std::size_t i = 0; i < 5; ++i) s.tail[i] = load_u32(p + 48 + 4 * i);
}
void encode_slot(std::uint8_t* p, const TerrainSlot68& s) {
  store_u16(p, s.pair_table_index);
  store_u16(p + 2, s.pair_count);
  store_u16(p + 4, s.word4);
  store_u16(p + 6, s.word6);
  put_vec3(p + 8, s.aabb_min);
  put_vec3(p + 20, s.aabb_max);
  put_vec3(p + 32, s.sphere_center);
  put_f32(p + 44, s.sphere_radius);
  for (std::size_t i = 0; i < 5; ++i) store_u32(p + 48 + 4 * i, s.tail[i]);
}
void decode_face(const std::uint8_t* p, TerrainFace28& f) {
  f.surface_mask = load_u32(p);
  f.material_tag = load_u16(p + 4);
  f.aux_tag = load_u16(p + 6);
  for (std::size_t i = 0; i < 3; ++i) f.vertices[i] = load_u16(p + 8 + 2 * i);
  for (std::size_t i = 0; i < 3; ++i) f.neighbours[i] = load_u16(p + 14 + 2 * i);
  std::copy(p + 20, p + 28, f.tail.begin());
}
void encode_face(std::uint8_t* p, const TerrainFace28& f) {
  store_u32(p, f.surface_mask);
  store_u16(p + 4, f.material_tag);
  store_u16(p + 6, f.aux_tag);
  for (std::size_t i = 0; i < 3; ++i) store_u16(p + 8 + 2 * i, f.vertices[i]);
  for (std::size_t i = 0; i < 3; ++i) store_u16(p + 14 + 2 * i, f.neighbours[i]);
  std::copy(f.tail.begin(), f.tail.end(), p + 20);
}

std::size_t stride_of(std::uint32_t type) {
  switch (type) {
    case 1:
      return kNodeStride;
    case 3:
      return 12;
    case 21:
      return kFaceStride;
    default:
      return 4;  // 4, 5, 11, 14, 18
  }
}

bool is_known(std::uint32_t type) {
  return std::find(kLandMshStreamOrder.begin(), kLandMshStreamOrder.end(), type) != kLandMshStreamOrder.end();
}

// Reports a profile-dependent finding: strict -> error, compatible -> warning into `findings`.
core::Status soft(Diagnostic d, const ReadOptions& o, core::Diagnostics* findings) {
  if (o.profile == core::Profile::strict) return fail(std::move(d));
  d.severity = core::Severity::warning;
  if (findings) findings->push_back(std::move(d));
  return {};
}

Diagnostic diag(const ReadOptions& o, std::string code, std::string message, std::uint64_t offset, std::string field) {
  return Diagnostic::error(std::move(code), std::move(message)).of(o.file_name).at(offset).in(std::move(field));
}

std::string entry_field(std::size_t index, std::string_view what) {
  return fmt::format("entries[{}].{}", index, what);
}

struct Located {
  const LandStream* stream = nullptr;
  std::size_t index = 0;
};

// Fixed-stride stream framing: size multiple -> attr3 -> attr1 (spec §15.1 order).
core::Status check_framing(const Located& s, std::size_t stride, const ReadOptions& o) {
  const auto& st = *s.stream;
  const std::uint64_t size = st.payload.size();
  if (size % stride != 0)
    return fail(diag(o, "land_msh.stream.size",
                     fmt::format("type {} payload is not a whole number of records", st.type_id), st.payload_offset,
                     entry_field(s.index, "size"))
                    .expect(fmt::format("a multiple of {}", stride), fmt::format("{} bytes", size)));
  if (st.attr3 != stride)
    return fail(diag(o, "land_msh.stream.stride", fmt::format("type {} stride (attr3) is wrong", st.type_id),
                     st.payload_offset, entry_field(s.index, "attr3"))
                    .expect(fmt::format("{}", stride), fmt::format("{}", st.attr3)));
  if (st.attr1 != size / stride)
    return fail(diag(o, "land_msh.stream.count",
                     fmt::format("type {} element count (attr1) does not match its size", st.type_id),
                     st.payload_offset, entry_field(s.index, "attr1"))
                    .expect(fmt::format("{}", size / stride), fmt::format("{}", st.attr1)));
  return {};
}

// Face references: vertex indices below the position count, neighbours 0xFFFF or a face index.
// A fast branch-free pass over all faces; the slow pass only runs to locate the first failure.
core::Status check_faces(std::span<const TerrainFace28> faces, std::size_t position_count, const ReadOptions& o,
                         std::uint64_t base_offset, core::Diagnostics* findings) {
  const std::size_t vc = position_count;
  const std::size_t fc = faces.size();
  // With n + 1 taken mod 2^16, "none" (0xFFFF) becomes 0: a neighbour is out of range when
  // n + 1 > face count, and a self link when n + 1 == i + 1 (never for face 65535's "none").
  unsigned bad = 0;
  unsigned self = 0;
  for (std::size_t i = 0; i < fc; ++i) {
    const auto& f = faces[i];
    bad |= static_cast<unsigned>(f.vertices[0] >= vc) | static_cast<unsigned>(f.vertices[1] >= vc) |
           static_cast<unsigned>(f.vertices[2] >= vc);
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t n1 = static_cast<std::uint16_t>(f.neighbours[k] + 1u);
      bad |= static_cast<unsigned>(n1 > fc);
      self |= static_cast<unsigned>(n1 == i + 1);
    }
  }
  if (!bad && !self) return {};
  for (std::size_t i = 0; i < fc; ++i) {
    const auto& f = faces[i];
    const std::uint64_t at = base_offset + i * kFaceStride;
    for (std::size_t k = 0; k < 3; ++k)
      if (f.vertices[k] >= vc)
        return fail(diag(o, "land_msh.face.vertex_index", "face vertex index is not below the position count",
                         at + 8 + 2 * k, fmt::format("faces[{}].vertex[{}]", i, k))
                        .expect(fmt::format("< {}", vc), fmt::format("{}", f.vertices[k])));
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t n = f.neighbours[k];
      if (n != kNoNeighbour && n >= fc)
        return fail(diag(o, "land_msh.face.neighbour", "face neighbour is neither 0xFFFF nor a face index",
                         at + 14 + 2 * k, fmt::format("faces[{}].neighbour[{}]", i, k))
                        .expect(fmt::format("0xffff or < {}", fc), fmt::format("{}", n)));
      if (n == i && n != kNoNeighbour)
        SORTIE_CHECK(soft(diag(o, "land_msh.face.neighbour_self", "face names itself as its neighbour", at + 14 + 2 * k,
                               fmt::format("faces[{}].neighbour[{}]", i, k))
                              .expect("another face or 0xffff", fmt::format("{}", n)),
                          o, findings));
    }
  }
  return {};
}

core::Status check_slot_pairs(const LandMsh& m, const ReadOptions& o, std::uint64_t base_offset,
                              core::Diagnostics* findings) {
  const std::size_t pairs = m.material_pairs.size();
  for (std::size_t i = 0; i < m.slots.size(); ++i) {
    const auto& s = m.slots[i];
    const std::size_t end = std::size_t{s.pair_table_index} + s.pair_count;
    if (end > pairs)
      SORTIE_CHECK(
          soft(diag(o, "land_msh.slot.pair_range", "slot addresses material pairs past the end of type 11",
                    base_offset + kLandMshSlotHeaderSize + i * kSlotStride, fmt::format("slots[{}].pair_count", i))
                   .expect(fmt::format("pair_table_index + pair_count <= {}", pairs),
                           fmt::format("{} + {} = {}", s.pair_table_index, s.pair_count, end)),
               o, findings));
  }
  return {};
}

}  // namespace

std::span<const MaterialPair> LandMsh::slot_pairs(std::size_t slot) const {
  if (slot >= slots.size()) return {};
  const auto& s = slots[slot];
  const std::size_t end = std::size_t{s.pair_table_index} + s.pair_count;
  if (end > material_pairs.size()) return {};
  return std::span<const MaterialPair>(material_pairs).subspan(s.pair_table_index, s.pair_count);
}

core::Result<LandMsh> decode_land_msh_streams(std::span<const LandStream> streams, const ReadOptions& o,
                                              core::Diagnostics* findings) {
  LandMsh m;
  m.entries.reserve(streams.size());
  // type id -> located stream (types 1..21 are small: a direct table).
  std::array<std::optional<Located>, 22> by_type;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const auto& s = streams[i];
    m.entries.push_back({s.type_id, s.attr1, s.attr2, s.attr3, s.name});
    if (!is_known(s.type_id)) {
      SORTIE_CHECK(soft(diag(o, "land_msh.stream.unknown", "entry of a type Land.msh does not define", s.payload_offset,
                             entry_field(i, "type_id"))
                            .expect("one of 1, 2, 3, 4, 5, 11, 14, 18, 21", fmt::format("{}", s.type_id)),
                        o, findings));
      m.extra_streams.push_back({i, core::Bytes(s.payload.begin(), s.payload.end())});
    }
  }
  // Presence, in the spec's order.
  for (const std::uint32_t type : kLandMshStreamOrder) {
    for (std::size_t i = 0; i < streams.size(); ++i) {
      if (streams[i].type_id != type) continue;
      if (by_type[type])
        return fail(diag(o, "land_msh.stream.duplicate", fmt::format("stream type {} appears more than once", type),
                         streams[i].payload_offset, entry_field(i, "type_id"))
                        .expect("exactly one entry", fmt::format("entries {} and {}", by_type[type]->index, i)));
      by_type[type] = Located{&streams[i], i};
    }
    if (!by_type[type])
      return fail(diag(o, "land_msh.stream.missing", fmt::format("stream type {} is missing", type), 0, "entries")
                      .expect(fmt::format("one entry of type {}", type), "none"));
  }
  // Physical order of the known streams.
  {
    std::vector<std::uint32_t> order;
    for (const auto& s : streams)
      if (is_known(s.type_id)) order.push_back(s.type_id);
    if (!std::equal(order.begin(), order.end(), kLandMshStreamOrder.begin(), kLandMshStreamOrder.end())) {
      const std::string found = fmt::format("{}", fmt::join(order, ","));
      SORTIE_CHECK(
          soft(diag(o, "land_msh.stream_order", "streams are not in the order every known map uses", 0, "entries")
                   .expect("[1,2,3,4,5,18,14,11,21]", "[" + found + "]"),
               o, findings));
    }
  }
  // Type 1: attr3, then attr1 = size / 38; a remainder is tolerated by the original reader.
  {
    const Located& s = *by_type[1];
    const auto& st = *s.stream;
    if (st.attr3 != kNodeStride)
      return fail(diag(o, "land_msh.stream.stride", "type 1 stride (attr3) is wrong", st.payload_offset,
                       entry_field(s.index, "attr3"))
                      .expect("38", fmt::format("{}", st.attr3)));
    if (st.attr1 != st.payload.size() / kNodeStride)
      return fail(diag(o, "land_msh.stream.count", "type 1 element count (attr1) does not match its size",
                       st.payload_offset, entry_field(s.index, "attr1"))
                      .expect(fmt::format("{}", st.payload.size() / kNodeStride), fmt::format("{}", st.attr1)));
    if (st.payload.size() % kNodeStride != 0)
      SORTIE_CHECK(soft(diag(o, "land_msh.stream.size", "type 1 payload is not a whole number of 38-byte nodes",
                             st.payload_offset, entry_field(s.index, "size"))
                            .expect("a multiple of 38", fmt::format("{} bytes", st.payload.size())),
                        o, findings));
    m.nodes_raw.assign(st.payload.begin(), st.payload.end());
  }
  // Type 2: header + 68-byte slots; attr1 = slot count (attr3 not checked).
  {
    const Located& s = *by_type[2];
    const auto& st = *s.stream;
    if (st.payload.size() < kLandMshSlotHeaderSize)
      return fail(diag(o, "land_msh.slots.header_size", "type 2 is shorter than its 0x8C-byte header",
                       st.payload_offset, entry_field(s.index, "size"))
                      .expect(">= 140 bytes", fmt::format("{} bytes", st.payload.size())));
    const std::size_t body = st.payload.size() - kLandMshSlotHeaderSize;
    if (body % kSlotStride != 0)
      return fail(diag(o, "land_msh.stream.size", "type 2 slot table is not a whole number of 68-byte slots",
                       st.payload_offset + kLandMshSlotHeaderSize, entry_field(s.index, "size"))
                      .expect("140 + a multiple of 68", fmt::format("{} bytes", st.payload.size())));
    if (st.attr1 != body / kSlotStride)
      return fail(diag(o, "land_msh.stream.count", "type 2 slot count (attr1) does not match its size",
                       st.payload_offset, entry_field(s.index, "attr1"))
                      .expect(fmt::format("{}", body / kSlotStride), fmt::format("{}", st.attr1)));
    std::copy_n(st.payload.begin(), kLandMshSlotHeaderSize, m.slot_header.begin());
    detail::decode_records(st.payload.subspan(kLandMshSlotHeaderSize), kSlotStride, m.slots, decode_slot);
  }
  // Fixed-stride streams, in the reference order.
  for (const std::uint32_t type : {3u, 4u, 5u, 11u, 14u, 18u, 21u})
    SORTIE_CHECK(check_framing(*by_type[type], stride_of(type), o));
  detail::decode_records(by_type[3]->stream->payload, 12, m.positions, decode_position);
  detail::decode_records(by_type[4]->stream->payload, 4, m.normals, decode_normal);
  detail::decode_records(by_type[5]->stream->payload, 4, m.uvs, decode_uv);
  detail::decode_records(by_type[11]->stream->payload, 4, m.material_pairs, decode_pair);
  detail::decode_records(by_type[14]->stream->payload, 4, m.aux_words, decode_word);
  detail::decode_records(by_type[18]->stream->payload, 4, m.microtexture, decode_word);
  detail::decode_records(by_type[21]->stream->payload, kFaceStride, m.faces, decode_face);

  SORTIE_CHECK(check_faces(m.faces, m.positions.size(), o, by_type[21]->stream->payload_offset, findings));
  SORTIE_CHECK(check_slot_pairs(m, o, by_type[2]->stream->payload_offset, findings));
  return m;
}

core::Status validate_land_msh(const LandMsh& m, const ReadOptions& o, core::Diagnostics* findings) {
  SORTIE_CHECK(check_faces(m.faces, m.positions.size(), o, 0, findings));
  SORTIE_CHECK(check_slot_pairs(m, o, 0, findings));
  return {};
}

core::Result<std::vector<LandStreamOut>> encode_land_msh_streams(const LandMsh& m) {
  std::vector<LandStreamOut> out;
  out.reserve(m.entries.size());
  std::array<bool, 22> seen{};
  std::size_t extra = 0;
  for (std::size_t i = 0; i < m.entries.size(); ++i) {
    LandStreamOut s{m.entries[i], {}};
    const std::uint32_t type = s.header.type_id;
    if (!is_known(type)) {
      if (extra >= m.extra_streams.size() || m.extra_streams[extra].entry_index != i)
        return fail(Diagnostic::error("land_msh.write.extra_stream", "entry of unknown type has no kept payload")
                        .in(entry_field(i, "type_id"))
                        .expect("an extra_streams record for this entry", "none"));
      s.payload = m.extra_streams[extra++].payload;
      out.push_back(std::move(s));
      continue;
    }
    if (seen[type])
      return fail(Diagnostic::error("land_msh.write.duplicate", fmt::format("stream type {} listed twice", type))
                      .in(entry_field(i, "type_id")));
    seen[type] = true;
    auto& h = s.header;
    auto framed = [&](core::Bytes bytes, std::size_t stride) {
      h.attr1 = static_cast<std::uint32_t>(bytes.size() / stride);
      h.attr3 = static_cast<std::uint32_t>(stride);
      s.payload = std::move(bytes);
    };
    switch (type) {
      case 1:
        h.attr1 = static_cast<std::uint32_t>(m.nodes_raw.size() / kNodeStride);
        h.attr3 = kNodeStride;
        s.payload = m.nodes_raw;
        break;
      case 2: {
        core::Bytes b(m.slot_header.begin(), m.slot_header.end());
        auto slots = detail::encode_records(m.slots, kSlotStride, encode_slot);
        b.insert(b.end(), slots.begin(), slots.end());
        h.attr1 = static_cast<std::uint32_t>(m.slots.size());
        s.payload = std::move(b);
        break;
      }
      case 3:
        framed(detail::encode_records(m.positions, 12, encode_position), 12);
        break;
      case 4:
        framed(detail::encode_records(m.normals, 4, encode_normal), 4);
        break;
      case 5:
        framed(detail::encode_records(m.uvs, 4, encode_uv), 4);
        break;
      case 11:
        framed(detail::encode_records(m.material_pairs, 4, encode_pair), 4);
        break;
      case 14:
        framed(detail::encode_records(m.aux_words, 4, encode_word), 4);
        break;
      case 18:
        framed(detail::encode_records(m.microtexture, 4, encode_word), 4);
        break;
      case 21:
        framed(detail::encode_records(m.faces, kFaceStride, encode_face), kFaceStride);
        break;
      default:
        break;
    }
    out.push_back(std::move(s));
  }
  if (extra != m.extra_streams.size())
    return fail(Diagnostic::error("land_msh.write.extra_stream", "kept payload of an unknown entry is not referenced")
                    .in("extra_streams")
                    .expect(fmt::format("{} used", m.extra_streams.size()), fmt::format("{} used", extra)));
  for (const std::uint32_t type : kLandMshStreamOrder)
    if (!seen[type])
      return fail(Diagnostic::error("land_msh.write.missing", fmt::format("no entry of stream type {}", type))
                      .in("entries")
                      .expect(fmt::format("one entry of type {}", type), "none"));
  return out;
}

}  // namespace sortie::iron3d
