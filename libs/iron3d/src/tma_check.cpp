#include <fmt/format.h>

#include <map>

#include "sortie/core/text.hpp"
#include "sortie/iron3d/tma.hpp"

namespace sortie::iron3d {

core::Diagnostics check_tma(const Tma& tma, std::string_view file_name) {
  core::Diagnostics out;
  std::map<std::string, std::size_t> first_index;  // raw clan name -> first clan with it
  for (std::size_t i = 0; i < tma.clans.size(); ++i) {
    const auto [it, inserted] = first_index.emplace(tma.clans[i].name, i);
    if (!inserted) {
      auto d =
          core::Diagnostic::warning("tma.clan.name_duplicate", "two clans share a name; relations to it are ambiguous")
              .of(std::string(file_name))
              .in(fmt::format("clans[{}].name", i))
              .expect("a unique clan name",
                      fmt::format("'{}' (also clans[{}])", core::cp1251_to_utf8(tma.clans[i].name).utf8, it->second));
      out.push_back(std::move(d));
    }
  }
  for (std::size_t i = 0; i < tma.clans.size(); ++i) {
    const auto& clan = tma.clans[i];
    for (std::size_t r = 0; r < clan.relations.size(); ++r) {
      const auto& rel = clan.relations[r];
      const std::string field = fmt::format("clans[{}].relations[{}].other_clan", i, r);
      const auto it = first_index.find(rel.other_clan);
      if (it == first_index.end()) {
        std::string known;
        for (const auto& c : tma.clans) known += (known.empty() ? "" : ", ") + core::cp1251_to_utf8(c.name).utf8;
        out.push_back(core::Diagnostic::warning("tma.clan.relation_unknown", "relation names no clan of this mission")
                          .of(std::string(file_name))
                          .in(field)
                          .expect(fmt::format("one of: {}", known),
                                  fmt::format("'{}'", core::cp1251_to_utf8(rel.other_clan).utf8)));
      } else if (it->second == i) {
        out.push_back(core::Diagnostic::warning("tma.clan.relation_self", "a clan relates to itself")
                          .of(std::string(file_name))
                          .in(field)
                          .expect("another clan", fmt::format("'{}'", core::cp1251_to_utf8(rel.other_clan).utf8)));
      }
    }
  }
  return out;
}

}  // namespace sortie::iron3d
