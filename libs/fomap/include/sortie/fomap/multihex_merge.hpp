#pragma once
// The Mapper's multihex merge normalization (spec/fomap.md §9.3, `MergeItemsToMultihexMeshes`)
// over abstract items, so the canonical writer and the tests share one implementation.
//
// - AnyUnique (generation 2): items of one proto and one data class collapse into the member
//   with the lowest id; position is irrelevant.
// - SameSibling (generation 1): spatial merge; neighbours are same-proto survivors covering the
//   same hex or one of the 6 adjacent hexes of any hex the current survivor covers. Absorbing A
//   into B is allowed iff B is clean (data class 0) or A and B share the data class. Step rule:
//   T = lowest-id neighbour that may absorb S, U = highest-id neighbour S may absorb; if T and
//   (no U or T.id < S.id) S merges into T (T continues), else if U, S absorbs U. Phase 1 starts
//   from every modified item, phase 2 from every item, both in item order.
//
// Cost: near-linear in the number of covered hexes (a union-find over the items, neighbour
// candidates kept in heaps per chain), so a carpet of 10^5 adjacent items merges in well under a
// second instead of the cubic walk of a per-step neighbour scan.
#include <cstdint>
#include <vector>

#include "sortie/fomap/multihex.hpp"

namespace sortie::fomap {

struct MergeItem {
  std::int64_t id = 0;           // placement id (unique within the map)
  std::uint32_t proto = 0;       // interned proto name: equal numbers = same proto
  int generation = 0;            // 1 SameSibling, 2 AnyUnique; anything else never merges
  std::uint32_t data_class = 0;  // 0 = clean (no override beyond Hex/MultihexMesh); equal = same data
  Hex origin;
  std::vector<Hex> mesh;
  // Results.
  bool alive = true;     // false: absorbed by another item
  bool changed = false;  // true: survivor that absorbed something; `mesh` is then the merged
                         // mesh, sorted by (y, x), without duplicates or the origin
};

// Merges `items` in place (their order is the Mapper's load order).
void merge_multihex(std::vector<MergeItem>& items);

}  // namespace sortie::fomap
