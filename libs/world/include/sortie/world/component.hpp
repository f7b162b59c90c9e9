#pragma once
// Typed per-object state: a small type-indexed component store on every WorldObject. Game
// layers (squad, movement, network) attach their own structs here instead of strings in the
// property bag; the property bag stays for mission properties.
//
// A component type is a copyable struct with a stable name and a canonical encoder:
//
//   struct Morale {
//     static constexpr std::string_view kComponentName = "squad.morale";  // stable, unique
//     std::int32_t value = 0;
//     void encode(StateWriter& out) const { out.u32(static_cast<std::uint32_t>(value)); }
//   };
//   object.components.emplace<Morale>(Morale{50});
//   if (Morale* m = object.components.get<Morale>()) m->value += 5;
//
// The state hash encodes the store in name order (never in insertion or address order), so two
// worlds that attach the same components in a different order hash the same. An object without
// components adds nothing to the encoding.
//
// A save's world image (docs/save-files.md) shows each component as data: a type with
//   void image(nlohmann::json& out) const;   // defined where nlohmann/json.hpp is included
// writes its fields; another shows its canonical encoding ({"encoding": hex}).
#include <concepts>
#include <cstdint>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sortie/world/state_writer.hpp"

namespace sortie::world {

template <class T>
concept Component = std::copy_constructible<T> && requires(const T& c, StateWriter& out) {
  { T::kComponentName } -> std::convertible_to<std::string_view>;
  c.encode(out);
};

// {"encoding": hex of the bytes}: the image of state that has no image of its own.
void encoding_image(const StateWriter& encoded, nlohmann::json& out);

class ComponentStore {
 public:
  ComponentStore() = default;
  ComponentStore(const ComponentStore& other) { copy_from(other); }
  ComponentStore& operator=(const ComponentStore& other) {
    if (this != &other) copy_from(other);
    return *this;
  }
  ComponentStore(ComponentStore&&) noexcept = default;
  ComponentStore& operator=(ComponentStore&&) noexcept = default;
  ~ComponentStore() = default;

  // Attaches (or replaces) the component of type T. Two different types with the same
  // kComponentName are a programming error (std::logic_error).
  template <Component T>
  T& emplace(T value) {
    const std::string_view name = T::kComponentName;
    for (Entry& e : entries_) {
      if (e.type == type_key<T>()) {
        auto& box = static_cast<Box<T>&>(*e.value);
        box.value = std::move(value);
        return box.value;
      }
      if (e.name == name) throw std::logic_error("component name used by two types: " + std::string(name));
    }
    auto box = std::make_unique<Box<T>>(std::move(value));
    T& out = box->value;
    insert(Entry{type_key<T>(), name, std::move(box)});
    return out;
  }

  template <Component T>
  [[nodiscard]] T* get() {
    for (Entry& e : entries_) {
      if (e.type == type_key<T>()) return &static_cast<Box<T>&>(*e.value).value;
    }
    return nullptr;
  }
  template <Component T>
  [[nodiscard]] const T* get() const {
    for (const Entry& e : entries_) {
      if (e.type == type_key<T>()) return &static_cast<const Box<T>&>(*e.value).value;
    }
    return nullptr;
  }
  template <Component T>
  [[nodiscard]] bool has() const {
    return get<T>() != nullptr;
  }
  template <Component T>
  bool remove() {
    return erase_type(type_key<T>());
  }

  [[nodiscard]] std::size_t size() const { return entries_.size(); }
  [[nodiscard]] bool empty() const { return entries_.empty(); }
  // Names of the attached components, ascending.
  [[nodiscard]] std::vector<std::string_view> names() const;
  // Canonical encoding: count u32, then per component in name order: name (lp string), the
  // component's own encoding length-prefixed (u32).
  void encode(StateWriter& out) const;
  // The save image: {name: the component's image} for every component, in name order.
  void image(nlohmann::json& out) const;

 private:
  struct Base {
    virtual ~Base() = default;
    virtual void encode(StateWriter& out) const = 0;
    virtual void image(nlohmann::json& out) const = 0;
    [[nodiscard]] virtual std::unique_ptr<Base> clone() const = 0;
  };
  template <class T>
  struct Box final : Base {
    explicit Box(T v) : value(std::move(v)) {}
    void encode(StateWriter& out) const override { value.encode(out); }
    void image(nlohmann::json& out) const override {
      if constexpr (requires(nlohmann::json & j) { value.image(j); }) {
        value.image(out);
      } else {
        StateWriter w;
        value.encode(w);
        encoding_image(w, out);
      }
    }
    [[nodiscard]] std::unique_ptr<Base> clone() const override { return std::make_unique<Box<T>>(value); }
    T value;
  };
  struct Entry {
    const void* type = nullptr;  // identity of the C++ type: lookup only, never ordered or hashed
    std::string_view name;       // T::kComponentName: the order and the hash
    std::unique_ptr<Base> value;
  };
  template <class T>
  static const void* type_key() {
    static constexpr char kKey = 0;
    return &kKey;
  }

  void insert(Entry entry);  // keeps entries_ sorted by name
  bool erase_type(const void* type);
  void copy_from(const ComponentStore& other);

  std::vector<Entry> entries_;
};

}  // namespace sortie::world
