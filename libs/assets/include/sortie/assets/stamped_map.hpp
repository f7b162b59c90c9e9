#pragma once
// A cache map with use stamps, for the maintenance passes (cache_trim.hpp): find() and emplace()
// stamp an entry with the current pass; trim(held) drops every entry that was not stamped since
// the previous trim() and that `held(value)` says nobody outside holds, then starts a new pass.
// A dropped entry is made again on its next request (the caches it backs are pure: the same
// bytes give the same value). Not thread-safe: the owner's lock (if any) covers it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>

namespace sortie::assets {

template <class V>
class StampedMap {
  struct Slot {
    V value;
    std::uint64_t pass = 0;
  };
  using Map = std::unordered_map<std::string, Slot>;

 public:
  // An iterator whose ->second is the value (as std::unordered_map's would be).
  class iterator {
   public:
    iterator() = default;
    explicit iterator(typename Map::iterator it) : it_(it) {}
    std::pair<const std::string&, V&> operator*() const { return {it_->first, it_->second.value}; }
    struct Arrow {
      std::pair<const std::string&, V&> p;
      auto* operator->() { return &p; }
    };
    Arrow operator->() const { return Arrow{**this}; }
    bool operator==(const iterator& o) const { return it_ == o.it_; }
    bool operator!=(const iterator& o) const { return it_ != o.it_; }

   private:
    friend class StampedMap;
    typename Map::iterator it_{};
  };

  iterator find(const std::string& key) {
    auto it = map_.find(key);
    if (it != map_.end()) it->second.pass = pass_;
    return iterator(it);
  }
  iterator end() { return iterator(map_.end()); }
  template <class... Args>
  std::pair<iterator, bool> emplace(const std::string& key, Args&&... args) {
    auto [it, inserted] = map_.try_emplace(key, Slot{V(std::forward<Args>(args)...), pass_});
    it->second.pass = pass_;
    return {iterator(it), inserted};
  }
  [[nodiscard]] std::size_t size() const { return map_.size(); }
  void clear() { map_.clear(); }

  // Returns the entries dropped; `bytes(value)` (optional) adds each entry's bytes before and
  // after into the two counters.
  template <class Held, class Bytes>
  std::size_t trim(Held held, Bytes bytes, std::uint64_t& bytes_before, std::uint64_t& bytes_after) {
    std::size_t dropped = 0;
    for (auto it = map_.begin(); it != map_.end();) {
      const std::uint64_t b = bytes(it->second.value);
      bytes_before += b;
      if (it->second.pass < pass_ && !held(it->second.value)) {
        it = map_.erase(it);
        ++dropped;
        continue;
      }
      bytes_after += b;
      ++it;
    }
    ++pass_;
    return dropped;
  }
  template <class Held>
  std::size_t trim(Held held) {
    std::uint64_t a = 0, b = 0;
    return trim(
        held, [](const V&) { return std::uint64_t{0}; }, a, b);
  }

 private:
  Map map_;
  std::uint64_t pass_ = 0;
};

}  // namespace sortie::assets
