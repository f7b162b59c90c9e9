#pragma once
// Property catalog: which keys a Map / Critter / Item body may carry, with their value types
// (spec/fomap.md §5). Built from the engine's catalog (fomap-reference/map-format.canonical.json,
// compiled in) plus project declarations (`_project_property_declarations.tsv`, enums, migration
// rules) found next to the protos.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sortie/core/diagnostic.hpp"

namespace sortie::fomap {

// Scalar kind of a property value or of one array / dict element.
enum class ScalarKind : std::uint8_t {
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  boolean,
  string,   // decoded string (§5.2 string decoder)
  hstring,  // hashed string; also resource paths and script function names
  enumeration,
  proto_ref,  // name of a proto of `ProtoType`
  // fixed value types
  ident,    // int64 placement/runtime id
  ucolor,   // uint32
  mdir,     // int16 angle
  mpos,     // int16 x y
  msize,    // int16 w h
  ipos16,   // int16 x y
  ipos,     // int32 x y
  isize,    // int32 w h
  irect,    // int32 x y w h
  time,     // synctime / nanotime / timespan: one int64 primitive
  any,      // `any`: stored as text
  unknown,  // a type this catalog cannot interpret: value kept verbatim, never normalized
};

enum class Container : std::uint8_t { single, array, dict };

struct PropertyType {
  std::string text;  // as declared: "mpos[]", "ident=>bool", "ItemOwnership"
  Container container = Container::single;
  ScalarKind kind = ScalarKind::unknown;      // element (or value, for dicts) kind
  ScalarKind key_kind = ScalarKind::unknown;  // dict key kind
  bool dict_of_arrays = false;                // "int32=>uint8[]"
  std::string enum_name;                      // for enumeration (value or dict key)
  std::string proto_type;                     // for proto_ref ("Item", "Critter"...)

  // Number of primitive fields of a value type (mpos = 2, irect = 4); 1 otherwise.
  [[nodiscard]] int fields() const;
};

// Parses a declared type name. Enum names are looked up in `enums`; unknown names give kind unknown.
PropertyType parse_property_type(
    std::string_view text,
    const std::map<std::string, std::map<std::string, std::int64_t, std::less<>>, std::less<>>& enums);

enum class PropertyOrigin : std::uint8_t { engine, project };

struct PropertyInfo {
  std::string entity;  // "Map", "Critter", "Item", "Location", ...
  std::string name;
  PropertyType type;
  PropertyOrigin origin = PropertyOrigin::engine;
  bool authorable = true;       // false: the loader rejects it (virtual / temporary)
  std::string excluded_reason;  // "temporary", "virtual" (when !authorable)
  bool server_only = false;     // skipped silently on the client side
  bool client_only = false;     // skipped silently on the server side
  bool resource = false;        // hstring naming a file that must exist
  bool nullable = false;
  std::string script_func;         // "CritterInit", "ItemStatic"... (empty = not a script)
  std::vector<std::string> flags;  // raw flag words
};

// Enum: name -> (value name -> value), with the engine's built-in enums pre-registered
// (ItemOwnership, CritterCondition, CritterItemSlot, CornerType, MultihexGenerationType, ...).
using EnumTable = std::map<std::string, std::map<std::string, std::int64_t, std::less<>>, std::less<>>;
// An enum holding this marker entry is open: value names outside the table are accepted as text.
inline constexpr std::string_view kOpenEnumMarker = "*";
inline constexpr std::int64_t kOpenEnumValue = INT64_MIN;

class PropertyCatalog {
 public:
  // The engine catalog (108 entries of map-format.canonical.json) and the engine enums and
  // migration rules (§5.1, §5.4).
  static PropertyCatalog engine();

  // Adds the project declaration table (`entity side type name flags`, tab separated).
  // Returns diagnostics (code `fomap.catalog.*`) for lines it could not read.
  core::Diagnostics add_project_declarations(std::string_view tsv, std::string_view file_name);
  // `enum value_name value` rows.
  core::Diagnostics add_project_enums(std::string_view tsv, std::string_view file_name);
  // `rule_args` rows: `Property <Entity> <Old> <New>` (other kinds kept for proto/enum migration).
  core::Diagnostics add_migration_rules(std::string_view tsv, std::string_view file_name);
  // Loads the engine catalog from a canonical JSON file instead of the compiled-in copy.
  core::Status load_engine_json(std::string_view json_text, std::string_view file_name);

  // Looks a property up for an entity after applying property migration rules.
  [[nodiscard]] const PropertyInfo* find(std::string_view entity, std::string_view name) const;
  // Migrated name ("IsStatic" -> "Static" for Item); returns `name` when no rule applies.
  [[nodiscard]] std::string_view migrate_property(std::string_view entity, std::string_view name) const;
  // Proto-name migration (`Proto <Type> <Old> <New|Remove>`): nullopt = no rule; "" = removed.
  [[nodiscard]] std::optional<std::string_view> migrate_proto(std::string_view type, std::string_view name) const;
  [[nodiscard]] std::optional<std::string_view> migrate_enum(std::string_view enum_name, std::string_view value) const;

  [[nodiscard]] const EnumTable& enums() const { return enums_; }
  [[nodiscard]] const std::map<std::string, PropertyInfo, std::less<>>& all() const { return props_; }  // "Entity.Name"
  [[nodiscard]] bool has_project_declarations() const { return has_project_; }

  void add(PropertyInfo info);

 private:
  std::map<std::string, PropertyInfo, std::less<>> props_;           // key "Entity.Name"
  std::unordered_map<std::string, const PropertyInfo*> index_;       // same keys, for fast lookup
  std::unordered_map<std::string, std::string> property_migration_;  // "Entity.Old" -> "New"
  std::map<std::string, std::string, std::less<>> proto_migration_;  // "Type.Old" -> "New" ("" = Remove)
  std::map<std::string, std::string, std::less<>> enum_migration_;   // "Enum.Old" -> "New"
  EnumTable enums_;
  bool has_project_ = false;
};

}  // namespace sortie::fomap
