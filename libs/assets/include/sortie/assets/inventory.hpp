#pragma once
// Inventory of shared archives (seed 000): an entry that no placed object reaches may be broken
// without failing a mission load; it is reported as an inventory warning instead.
#include "sortie/assets/archive_repository.hpp"
#include "sortie/assets/dependency_graph.hpp"

namespace sortie::assets {

struct InventoryReport {
  std::size_t archives = 0;
  std::size_t entries = 0;     // entries of those archives
  std::size_t reached = 0;     // entries named by a graph node
  std::size_t checked = 0;     // unreached entries decoded by their type
  core::Diagnostics warnings;  // code asset.inventory.broken_entry, one per broken unreached entry
  [[nodiscard]] core::Json to_json() const;
};

// Decodes every unreached entry of every archive the repository has opened, by its kind
// (MAT0, Texm, WEAR, *.msh models, ObjectRef tables of objects.rlb).
InventoryReport inventory_archives(const ArchiveRepository& repo, const DependencyGraph& graph,
                                   core::Profile profile = core::Profile::strict);

}  // namespace sortie::assets
