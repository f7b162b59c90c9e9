// The effect chain of the resolver (seed 000 step 7 "FXID dependencies"): an effect name ->
// its FXID entry (effects.rlb, or the archive the name gives) read and prepared once
// (prepared_effect.hpp); its bodies' materials go through the visual chain like WEAR rows.
#include <fmt/format.h>

#include "resolver_internal.hpp"
#include "sortie/iron3d/fxid.hpp"

namespace sortie::assets::detail {

std::shared_ptr<const EffectCheck> EffectChain::effect(const EffectRef& ref) {
  const std::string key = ref.key();
  if (auto it = effects_.find(key); it != effects_.end()) return it->second;
  auto check = std::make_shared<EffectCheck>();
  auto archive = open_named_archive(repo_, ref.archive, PathPolicy::host_compatible);
  if (!archive) {
    check->failure = failure_from(archive.error(), "load.effect_missing",
                                  fmt::format("{}: archive does not open", ref.archive), ref.archive, ref.name);
  } else {
    const MountedArchive& a = **archive;
    const auto index = a.find(clean_legacy_name(ref.name));
    if (!index || !a.may_be_type(*index, iron3d::kFxidTypeId)) {
      check->failure =
          Failure{"load.effect_missing",   fmt::format("{}: effect '{}' not found", a.path().path, ref.name),
                  a.path().path,           ref.name,
                  "an entry of type FXID", index ? "an entry of another type" : "none"};
    } else {
      const std::string entry = a.name(*index);
      const std::string where = a.path().path + ":" + entry;
      auto payload = a.payload(*index);
      if (!payload) {
        check->failure =
            failure_from(payload.error(), "load.effect_invalid", where + ": does not decode", a.path().path, entry);
      } else if (auto fx = iron3d::read_fxid(*payload, iron3d::ReadOptions{options_.profile, where}); !fx) {
        check->failure =
            failure_from(fx.error(), "load.effect_invalid", where + ": invalid FXID", a.path().path, entry);
      } else if (auto prepared = prepare_effect(*fx, a.path().path, entry); !prepared) {
        check->failure =
            failure_from(prepared.error(), "load.effect_invalid", where + ": cannot be run", a.path().path, entry);
      } else {
        check->effect = std::make_shared<const PreparedEffect>(std::move(*prepared));
      }
    }
  }
  effects_.emplace(key, check);
  return check;
}

}  // namespace sortie::assets::detail
