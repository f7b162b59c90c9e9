#pragma once
// Two kinds of object properties, kept apart on purpose (docs/decisions/0020-lossless-properties.md):
//
// - Properties: sortie's own keyed bag (placed_index, clan, components, fomap.*, what scripts
//   set). One value per key; insertion order is kept (it is part of the canonical encoding); a
//   second set() of the same key replaces the value in place.
// - RawProperties: the source file's property records, verbatim and in file order (data.tma's
//   (name, four raw u32 words) list). Append-only; repeated names are kept, every word is kept;
//   there is no set() because a name does not identify one record.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace sortie::world {

using PropertyValue = std::variant<std::int64_t, double, std::string>;

class Properties {
 public:
  void set(std::string_view key, PropertyValue value);
  [[nodiscard]] const PropertyValue* find(std::string_view key) const;
  [[nodiscard]] std::optional<std::int64_t> get_int(std::string_view key) const;
  bool erase(std::string_view key);  // keeps the order of the others
  [[nodiscard]] std::size_t size() const { return items_.size(); }
  [[nodiscard]] bool empty() const { return items_.empty(); }
  [[nodiscard]] const std::vector<std::pair<std::string, PropertyValue>>& items() const { return items_; }
  friend bool operator==(const Properties&, const Properties&) = default;

 private:
  std::vector<std::pair<std::string, PropertyValue>> items_;
};

// The four raw words of a source property record; their meaning depends on the consumer (an
// integer, a float's bits, a packed pair...), so they are never interpreted here.
using RawWords = std::array<std::uint32_t, 4>;

struct RawProperty {
  std::string name;        // UTF-8 (the source's CP1251 decoded), for display and lookup
  std::string name_bytes;  // the source's own bytes when `name` does not decode them losslessly, else empty
  RawWords words{};
  friend bool operator==(const RawProperty&, const RawProperty&) = default;
};

class RawProperties {
 public:
  void add(RawProperty p) { items_.push_back(std::move(p)); }  // appends, repeated names included
  [[nodiscard]] std::size_t size() const { return items_.size(); }
  [[nodiscard]] bool empty() const { return items_.empty(); }
  [[nodiscard]] const std::vector<RawProperty>& items() const { return items_; }
  // The first record named `name` (UTF-8), or nullptr; count() says whether it is the only one.
  [[nodiscard]] const RawProperty* first(std::string_view name) const;
  [[nodiscard]] std::size_t count(std::string_view name) const;
  friend bool operator==(const RawProperties&, const RawProperties&) = default;

 private:
  std::vector<RawProperty> items_;
};

}  // namespace sortie::world
