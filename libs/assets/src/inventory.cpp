#include "sortie/assets/inventory.hpp"

#include <fmt/format.h>

#include <unordered_set>

#include "provenance.hpp"
#include "sortie/core/text.hpp"
#include "sortie/iron3d/mat0.hpp"
#include "sortie/iron3d/msh.hpp"
#include "sortie/iron3d/object_refs.hpp"
#include "sortie/iron3d/texm.hpp"
#include "sortie/iron3d/wear.hpp"

namespace sortie::assets {

core::Json InventoryReport::to_json() const {
  return core::Json{{"archives", archives},      {"entries", entries},
                    {"reached", reached},        {"checked", checked},
                    {"broken", warnings.size()}, {"warnings", core::diagnostics_json(warnings)}};
}

InventoryReport inventory_archives(const ArchiveRepository& repo, const DependencyGraph& graph, core::Profile profile) {
  InventoryReport report;
  std::unordered_set<std::string> reached;
  for (const auto& n : graph.nodes())
    if (!n.entry.empty()) reached.insert(detail::entry_key(n.archive, n.entry));
  for (const auto& archive : repo.opened()) {
    ++report.archives;
    const bool registry = core::iequals_ascii(archive->path().path, "objects.rlb");
    for (std::size_t i = 0; i < archive->size(); ++i) {
      ++report.entries;
      const std::string name = archive->name(i);
      if (reached.count(detail::entry_key(archive->path().path, name))) {
        ++report.reached;
        continue;
      }
      iron3d::ReadOptions ro;
      ro.profile = profile;
      ro.file_name = archive->path().path + ":" + name;
      std::optional<core::Diagnostic> broken;
      auto payload = archive->payload(i);
      const std::uint32_t type = archive->type_id(i);
      if (!payload) {
        broken = payload.error();
      } else if (registry) {
        if (auto r = iron3d::read_object_refs(*payload, ro); !r) broken = r.error();
      } else if (type == iron3d::kMat0TypeId) {
        const auto* e = archive->nres_entry(i);
        if (auto r = iron3d::read_mat0(*payload, e ? e->attr2 : iron3d::kMat0MaxKnownVersion, ro); !r)
          broken = r.error();
      } else if (type == iron3d::kTexmMagic) {
        if (auto r = iron3d::read_texm(*payload, ro); !r) broken = r.error();
      } else if (type == iron3d::kWearTypeId) {
        if (auto r = iron3d::read_wear(*payload, ro); !r) broken = r.error();
      } else if (core::iends_with_ascii(name, ".msh")) {
        if (auto r = iron3d::read_msh(*payload, ro); !r) broken = r.error();
      } else {
        continue;  // a kind the inventory does not decode (e.g. .bas, .cpt)
      }
      ++report.checked;
      if (broken) {
        core::Diagnostic d = core::Diagnostic::warning(
            "asset.inventory.broken_entry",
            fmt::format("{}:{}: unreached entry does not decode: {}", archive->path().path, name, broken->to_string()));
        d.file = archive->path().path;
        d.field = name;
        report.warnings.push_back(std::move(d));
      }
    }
  }
  return report;
}

}  // namespace sortie::assets
