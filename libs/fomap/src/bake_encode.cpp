// Value encoding of the bake: parsed values -> POD bytes / complex raw encodings (spec/fomap.md §10.3).
#include <bit>
#include <cstring>

#include "bake_internal.hpp"
#include "sortie/fomap/hash.hpp"

namespace sortie::fomap::bake_detail {
namespace {

// Little-endian bytes of one field value.
void put_le(std::uint8_t* out, std::uint64_t v, std::uint32_t size) {
  for (std::uint32_t i = 0; i < size; ++i) out[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Raw little-endian fields of one scalar (value types give several fields).
struct Fields {
  std::uint64_t v[4]{};
  std::uint32_t count = 1;
  std::uint32_t size = 0;  // bytes per field
};

Fields fields_of(const PropertyType& type, ScalarKind kind, const ScalarValue& s, std::string_view enum_name,
                 std::vector<std::string>* strings) {
  Fields f;
  f.size = field_size(kind, enum_name);
  switch (kind) {
    case ScalarKind::float32:
      f.v[0] = std::bit_cast<std::uint32_t>(static_cast<float>(s.real));
      break;
    case ScalarKind::float64:
      f.v[0] = std::bit_cast<std::uint64_t>(s.real);
      break;
    case ScalarKind::hstring:
    case ScalarKind::proto_ref:
      f.v[0] = string_hash(s.text);
      if (strings && !s.text.empty()) strings->push_back(s.text);
      break;
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
    case ScalarKind::ipos:
    case ScalarKind::isize:
    case ScalarKind::irect:
      f.count = static_cast<std::uint32_t>(type.fields());
      if (kind == ScalarKind::irect) f.count = 4;
      for (std::uint32_t i = 0; i < f.count; ++i) f.v[i] = static_cast<std::uint64_t>(s.ints[i]);
      break;
    default:
      f.v[0] = static_cast<std::uint64_t>(s.ints[0]);
      break;
  }
  return f;
}

bool string_like(ScalarKind k) {
  return k == ScalarKind::string || k == ScalarKind::any || k == ScalarKind::unknown;
}

void write_element(ComplexWriter& w, const PropertyType& type, ScalarKind kind, const ScalarValue& s,
                   std::string_view enum_name, std::vector<std::string>* strings) {
  if (string_like(kind)) {
    w.string(s.text);
    return;
  }
  const Fields f = fields_of(type, kind, s, enum_name, strings);
  for (std::uint32_t i = 0; i < f.count; ++i) w.scalar_le(f.v[i], f.size);
}

}  // namespace

void store_plain(const Registrar& reg, const Registrar::Slot& slot, const ScalarValue* value, core::Bytes& pod,
                 std::vector<std::string>* strings) {
  const PropertyType& t = slot.info->type;
  std::uint8_t* out = pod.data() + reg.layout().plain()[slot.index].offset;
  std::memset(out, 0, slot.size);
  if (!value) return;
  const Fields f = fields_of(t, t.kind, *value, t.enum_name, strings);
  for (std::uint32_t i = 0; i < f.count; ++i) put_le(out + i * f.size, f.v[i], f.size);
}

bool store_int16_pairs(const PropertyType& type, std::string_view text, std::vector<std::int16_t>& scratch,
                       core::Bytes& complex_out) {
  if (type.container != Container::array || type.fields() != 2 || field_size(type.kind, type.enum_name) != 2)
    return false;
  if (!read_int16_pairs(text, scratch)) return false;
  // 2-byte scalars from offset 0 are always aligned (ComplexWriter adds no padding): the raw
  // encoding is the values little-endian, back to back.
  complex_out.resize(scratch.size() * 2);
  for (std::size_t i = 0; i < scratch.size(); ++i)
    core::store_u16(complex_out.data() + 2 * i, static_cast<std::uint16_t>(scratch[i]));
  return true;
}

void store_value(const Registrar& reg, const Registrar::Slot& slot, const PropertyValue& value, core::Bytes& pod,
                 core::Bytes& complex_out, std::vector<std::string>* strings) {
  const PropertyType& t = slot.info->type;
  if (slot.plain) {
    store_plain(reg, slot, value.elements.empty() ? nullptr : &value.elements.front(), pod, strings);
    return;
  }
  ComplexWriter w(std::move(complex_out));
  if (t.container == Container::single) {
    if (!value.elements.empty()) {
      const ScalarValue& s = value.elements.front();
      if (string_like(t.kind))
        w.raw(core::as_bytes(s.text));  // a single string: bytes, no length
      else
        write_element(w, t, t.kind, s, t.enum_name, strings);
    }
  } else if (t.container == Container::array) {
    if (string_like(t.kind)) w.u32(static_cast<std::uint32_t>(value.elements.size()));
    for (const auto& e : value.elements) write_element(w, t, t.kind, e, t.enum_name, strings);
  } else {
    const std::string key_enum = t.key_kind == ScalarKind::enumeration ? t.enum_name : std::string();
    for (const auto& [k, vals] : value.entries) {
      write_element(w, t, t.key_kind, k, key_enum, strings);
      if (t.dict_of_arrays) {
        w.u32(static_cast<std::uint32_t>(vals.size()));
        for (const auto& v : vals) write_element(w, t, t.kind, v, t.enum_name, strings);
      } else if (!vals.empty()) {
        write_element(w, t, t.kind, vals.front(), t.enum_name, strings);
      }
    }
  }
  complex_out = w.take();
}

}  // namespace sortie::fomap::bake_detail
