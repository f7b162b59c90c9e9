// MergeItemsToMultihexMeshes (spec/fomap.md §9.3) in near-linear time.
#include "sortie/fomap/multihex_merge.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <utility>

namespace sortie::fomap {
namespace {

bool hex_less(const Hex& a, const Hex& b) {
  return a.y != b.y ? a.y < b.y : a.x < b.x;
}

std::uint64_t hex_key(Hex h) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(h.x)) << 32) | static_cast<std::uint32_t>(h.y);
}

// Final mesh of a survivor: every covered hex but the origin, sorted, once each.
void normalize_mesh(MergeItem& item) {
  std::sort(item.mesh.begin(), item.mesh.end(), hex_less);
  item.mesh.erase(std::unique(item.mesh.begin(), item.mesh.end()), item.mesh.end());
  item.mesh.erase(std::remove(item.mesh.begin(), item.mesh.end(), item.origin), item.mesh.end());
}

void merge_any_unique(std::vector<MergeItem>& items) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> best;  // (proto, data class) -> lowest id
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].generation != 2) continue;
    auto [it, fresh] = best.try_emplace({items[i].proto, items[i].data_class}, i);
    if (!fresh && items[i].id < items[it->second].id) it->second = i;
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].generation != 2) continue;
    const std::size_t into = best.at({items[i].proto, items[i].data_class});
    if (into == i) continue;
    MergeItem& g = items[into];
    g.mesh.push_back(items[i].origin);
    g.mesh.insert(g.mesh.end(), items[i].mesh.begin(), items[i].mesh.end());
    items[i].alive = false;
    items[i].mesh.clear();
    g.changed = true;
  }
}

// SameSibling: a union-find over the items (the root of a group is its survivor), the hexes each
// group covers, and an index hex -> items that cover it at the start. Merges only ever happen
// with the current survivor of a chain, so every other group found next to it stays a root for
// the whole chain; candidates are kept in heaps and dropped lazily once absorbed.
class SiblingMerge {
 public:
  explicit SiblingMerge(std::vector<MergeItem>& items) : items_(items), parent_(items.size()), cover_(items.size()) {
    std::iota(parent_.begin(), parent_.end(), std::uint32_t{0});
    for (std::uint32_t i = 0; i < items_.size(); ++i) {
      if (items_[i].generation != 1) continue;
      cover_[i] = items_[i].mesh;
      cover_[i].push_back(items_[i].origin);
      for (const Hex& h : cover_[i]) at_.push_back({hex_key(h), i});
    }
    std::sort(at_.begin(), at_.end());
  }

  void run() {
    for (int phase = 1; phase <= 2; ++phase)
      for (std::uint32_t start = 0; start < items_.size(); ++start) {
        if (items_[start].generation != 1 || parent_[start] != start || (phase == 1 && clean(start))) continue;
        chain(start);
      }
    for (std::uint32_t i = 0; i < items_.size(); ++i) {
      if (items_[i].generation != 1) continue;
      if (parent_[i] != i) {
        items_[i].alive = false;
        items_[i].mesh.clear();
      } else if (items_[i].changed) {
        items_[i].mesh = std::move(cover_[i]);
      }
    }
  }

 private:
  using Entry = std::pair<std::int64_t, std::uint32_t>;  // (id, root item)

  std::vector<MergeItem>& items_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::vector<Hex>> cover_;                      // hexes covered by each root's group
  std::vector<std::pair<std::uint64_t, std::uint32_t>> at_;  // (hex key, item) sorted
  // Per chain: the survivor, its starting data class and the candidate heaps.
  std::uint32_t s_ = 0;
  std::uint32_t c0_ = 0;
  std::vector<Entry> min_clean_;  // clean candidates, lowest id first
  std::vector<Entry> min_c0_;     // candidates of class c0 (c0 != 0), lowest id first
  std::vector<Entry> max_c0_;     // same, highest id first
  std::vector<Entry> max_all_;    // every candidate, highest id first

  [[nodiscard]] bool clean(std::uint32_t i) const { return items_[i].data_class == 0; }

  std::uint32_t find(std::uint32_t i) {
    while (parent_[i] != i) {
      parent_[i] = parent_[parent_[i]];
      i = parent_[i];
    }
    return i;
  }

  void push(std::uint32_t r) {
    const Entry e{items_[r].id, r};
    const std::uint32_t c = items_[r].data_class;
    if (c == 0) {
      min_clean_.push_back(e);
      std::push_heap(min_clean_.begin(), min_clean_.end(), std::greater<>());
    }
    if (c0_ != 0 && c == c0_) {
      min_c0_.push_back(e);
      std::push_heap(min_c0_.begin(), min_c0_.end(), std::greater<>());
      max_c0_.push_back(e);
      std::push_heap(max_c0_.begin(), max_c0_.end());
    }
    max_all_.push_back(e);
    std::push_heap(max_all_.begin(), max_all_.end());
  }

  // Every same-proto group on or next to `hexes` becomes a candidate.
  void scan(const std::vector<Hex>& hexes) {
    const std::uint32_t proto = items_[s_].proto;
    for (const Hex& h : hexes)
      for (int d = -1; d < 6; ++d) {
        const std::uint64_t k = hex_key(d < 0 ? h : hex_step(h, d));
        auto it = std::lower_bound(at_.begin(), at_.end(), std::make_pair(k, std::uint32_t{0}));
        for (; it != at_.end() && it->first == k; ++it) {
          if (items_[it->second].proto != proto) continue;
          const std::uint32_t r = find(it->second);
          if (r != s_) push(r);
        }
      }
  }

  // Top of a heap after dropping candidates the survivor has absorbed; nullptr when empty.
  template <class Less>
  const Entry* top(std::vector<Entry>& heap, Less less) {
    while (!heap.empty()) {
      if (find(heap.front().second) != s_) return &heap.front();
      std::pop_heap(heap.begin(), heap.end(), less);
      heap.pop_back();
    }
    return nullptr;
  }

  // `into` absorbs the group of `from` (both roots).
  void absorb(std::uint32_t into, std::uint32_t from) {
    parent_[from] = into;
    items_[into].changed = true;
    std::vector<Hex>& a = cover_[into];
    std::vector<Hex>& b = cover_[from];
    if (a.size() < b.size()) a.swap(b);
    a.insert(a.end(), b.begin(), b.end());
    std::vector<Hex>().swap(b);
  }

  void chain(std::uint32_t start) {
    s_ = start;
    c0_ = items_[start].data_class;
    min_clean_.clear();
    min_c0_.clear();
    max_c0_.clear();
    max_all_.clear();
    scan(cover_[s_]);
    while (true) {
      // The survivor's class is c0 or clean: S only ever merges into a clean or same-class T.
      const bool s_clean = clean(s_);
      const Entry* t = top(min_clean_, std::greater<>());
      if (!s_clean) {
        const Entry* t2 = top(min_c0_, std::greater<>());
        if (t2 && (!t || t2->first < t->first)) t = t2;
      }
      const Entry* u = s_clean ? top(max_all_, std::less<>()) : top(max_c0_, std::less<>());
      if (t && (!u || t->first < items_[s_].id)) {
        const std::uint32_t target = t->second;
        scan(cover_[target]);  // the survivor's new hexes (its own were scanned already)
        absorb(target, s_);
        s_ = target;
      } else if (u) {
        const std::uint32_t victim = u->second;
        scan(cover_[victim]);
        absorb(s_, victim);
      } else {
        break;
      }
    }
  }
};

}  // namespace

void merge_multihex(std::vector<MergeItem>& items) {
  merge_any_unique(items);
  SiblingMerge(items).run();
  for (MergeItem& item : items)
    if (item.alive && item.changed) normalize_mesh(item);
}

}  // namespace sortie::fomap
