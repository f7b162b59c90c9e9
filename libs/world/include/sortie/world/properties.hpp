#pragma once
// Ordered property bag: insertion order is kept (it is part of the canonical encoding), a
// second set() of the same key replaces the value in place.
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

}  // namespace sortie::world
