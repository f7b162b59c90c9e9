// Registrar layout for baking: which properties have storage on a side, plain vs complex, sizes.
#include <algorithm>
#include <cstring>

#include "bake_internal.hpp"
#include "sortie/fomap/bake.hpp"

namespace sortie::fomap {

namespace bake_detail {

bool is_one_byte_enum(std::string_view name) {
  return name == "ItemOwnership" || name == "CritterCondition" || name == "CritterItemSlot" || name == "CornerType" ||
         name == "MultihexGenerationType";
}

std::uint32_t scalar_size(ScalarKind kind, std::string_view enum_name) {
  switch (kind) {
    case ScalarKind::int8:
    case ScalarKind::uint8:
    case ScalarKind::boolean:
      return 1;
    case ScalarKind::int16:
    case ScalarKind::uint16:
    case ScalarKind::mdir:
      return 2;
    case ScalarKind::int32:
    case ScalarKind::uint32:
    case ScalarKind::float32:
    case ScalarKind::ucolor:
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
      return 4;
    case ScalarKind::int64:
    case ScalarKind::uint64:
    case ScalarKind::float64:
    case ScalarKind::ident:
    case ScalarKind::time:
    case ScalarKind::hstring:
    case ScalarKind::proto_ref:
    case ScalarKind::ipos:
    case ScalarKind::isize:
      return 8;
    case ScalarKind::irect:
      return 16;
    case ScalarKind::enumeration:
      return is_one_byte_enum(enum_name) ? 1 : 4;
    case ScalarKind::string:
    case ScalarKind::any:
    case ScalarKind::unknown:
      return 0;
  }
  return 0;
}

std::uint32_t field_size(ScalarKind kind, std::string_view enum_name) {
  switch (kind) {
    case ScalarKind::mpos:
    case ScalarKind::msize:
    case ScalarKind::ipos16:
      return 2;
    case ScalarKind::ipos:
    case ScalarKind::isize:
    case ScalarKind::irect:
      return 4;
    default:
      return scalar_size(kind, enum_name);
  }
}

bool is_plain(const PropertyType& t) {
  return t.container == Container::single && scalar_size(t.kind, t.enum_name) != 0;
}

bool has_flag(const PropertyInfo& info, std::string_view flag) {
  return std::find(info.flags.begin(), info.flags.end(), flag) != info.flags.end();
}

}  // namespace bake_detail

using namespace bake_detail;

Registrar::Registrar(const PropertyCatalog& catalog, std::string_view entity, BakeSide side)
    : entity_(entity), side_(side) {
  std::vector<std::pair<const PropertyInfo*, bool>> kept;
  for (const auto& [key, info] : catalog.all()) {
    if (info.entity != entity) continue;
    const bool disabled =
        (side == BakeSide::client && info.server_only) || (side == BakeSide::server && info.client_only);
    if (disabled) {
      other_side_[info.name] = true;
      continue;
    }
    if (info.excluded_reason == "virtual" || has_flag(info, "Virtual")) continue;
    Slot slot;
    slot.info = &info;
    slot.plain = is_plain(info.type);
    if (slot.plain) {
      slot.size = scalar_size(info.type.kind, info.type.enum_name);
      const PodArea area = has_flag(info, "PublicSync")  ? PodArea::public_sync
                           : has_flag(info, "OwnerSync") ? PodArea::owner_sync
                                                         : PodArea::private_data;
      slot.index = layout_.add_plain(info.name, area, slot.size);
    } else {
      slot.index = layout_.add_complex(info.name);
    }
    slots_.emplace(info.name, slot);
  }
  layout_.finish();
}

const Registrar::Slot* Registrar::find(std::string_view name) const {
  auto it = slots_.find(name);
  return it == slots_.end() ? nullptr : &it->second;
}

bool Registrar::other_side_only(std::string_view name) const {
  return other_side_.count(name) != 0;
}

std::optional<std::int64_t> Registrar::plain_int(const PropertyData& data, std::string_view name,
                                                 std::uint32_t field) const {
  const Slot* s = find(name);
  if (!s || !s->plain) return std::nullopt;
  const auto& p = layout_.plain()[s->index];
  const std::uint32_t fs = field_size(s->info->type.kind, s->info->type.enum_name);
  const std::uint64_t at = static_cast<std::uint64_t>(p.offset) + static_cast<std::uint64_t>(field) * fs;
  if (fs == 0 || at + fs > data.pod.size() || (field + 1) * fs > s->size) return std::nullopt;
  std::uint64_t raw = 0;
  for (std::uint32_t i = 0; i < fs; ++i) raw |= static_cast<std::uint64_t>(data.pod[at + i]) << (8 * i);
  // Sign-extend signed kinds.
  const ScalarKind k = s->info->type.kind;
  const bool is_unsigned = k == ScalarKind::uint8 || k == ScalarKind::uint16 || k == ScalarKind::uint32 ||
                           k == ScalarKind::uint64 || k == ScalarKind::boolean || k == ScalarKind::ucolor ||
                           k == ScalarKind::hstring || k == ScalarKind::proto_ref;
  if (!is_unsigned && fs < 8 && (raw >> (8 * fs - 1)) & 1) raw |= ~0ULL << (8 * fs);
  return static_cast<std::int64_t>(raw);
}

std::optional<core::ByteView> Registrar::complex(const PropertyData& data, std::string_view name) const {
  const Slot* s = find(name);
  if (!s || s->plain || s->index >= data.complex.size()) return std::nullopt;
  return core::ByteView(data.complex[s->index]);
}

BakeRegistrars::BakeRegistrars(const PropertyCatalog& catalog)
    : critter_server(catalog, "Critter", BakeSide::server),
      item_server(catalog, "Item", BakeSide::server),
      critter_client(catalog, "Critter", BakeSide::client),
      item_client(catalog, "Item", BakeSide::client) {}

}  // namespace sortie::fomap
