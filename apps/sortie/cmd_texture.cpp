// `sortie texture export TEXM|ARCHIVE [ENTRY] -o out.png [--levels N|all]` and
// `sortie texture import in.png [level1.png ...] -o entry.texm [--format F] [--mips N]`.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli_util.hpp"
#include "command.hpp"
#include "sortie/cli/options.hpp"
#include "sortie/interchange/interchange_files.hpp"

namespace sortie::cli {
namespace {

int print_written(const core::Result<interchange::WrittenFiles>& r, bool json) {
  if (!r) return cli::fail_with(r.error(), json);
  if (json) {
    core::Json files = core::Json::array();
    for (const auto& f : r->files) files.push_back(f.string());
    print_json({{"files", std::move(files)}, {"bytes", r->bytes}});
    return kExitOk;
  }
  for (const auto& f : r->files) std::cout << fmt::format("wrote {}\n", f.string());
  return kExitOk;
}

}  // namespace

SORTIE_COMMAND(texture, [](CLI::App& root, Outcome& outcome) {
  auto* cmd = root.add_subcommand("texture", "Texm textures and lightmaps to PNG and back");
  cmd->require_subcommand(1);
  cmd->footer(
      "A PNG written here carries the Texm header (format, flags, palette, atlas, level count) in a\n"
      "'sortie:texm' text chunk, so importing it (with every level) gives the same Texm bytes for\n"
      "565, 556, 4444, 88, 888 and 8888. Missing levels are box-filtered from the last given one.\n\n"
      "Examples:\n  sortie texture export textures.lib T_GRASS -o grass.png --levels all\n"
      "  sortie texture import grass.png grass.1.png -o grass.texm\n"
      "  sortie texture import painted.png -o new.texm --format 565\n");
  auto ex = std::make_shared<interchange::TextureExportRequest>();
  auto ex_levels = std::make_shared<std::string>("1");
  auto json = std::make_shared<bool>(false);
  auto* exp = cmd->add_subcommand("export", "A Texm (file or archive entry) as PNG, one file per level");
  exp->add_option("input", ex->input, "a Texm file or an archive (textures.lib, lightmap.lib)")->required();
  exp->add_option("entry", ex->entry, "the entry, when the input is an archive");
  exp->add_option("--out,-o", ex->out, "PNG of level 0; level i goes to STEM.i.png")->required();
  exp->add_option("--levels", *ex_levels, "levels to write: N or all")->default_str("1");
  exp->add_flag("--json", *json, "print the files as JSON");
  exp->callback([ex, ex_levels, json, &outcome] {
    if (*ex_levels == "all") {
      ex->levels = 0;
    } else {
      try {
        ex->levels = static_cast<std::uint32_t>(std::stoul(*ex_levels));
      } catch (const std::exception&) {
        ex->levels = 0xFFFFFFFFu;
      }
      if (ex->levels == 0 || ex->levels > 32) {
        outcome.exit_code = cli::fail_with(
            core::Diagnostic::error("usage", "--levels is 1..32 or all").expect("1..32 or all", *ex_levels), *json);
        return;
      }
    }
    outcome.exit_code = print_written(interchange::export_texture_file(*ex), *json);
  });
  auto im = std::make_shared<interchange::TextureImportRequest>();
  auto* imp = cmd->add_subcommand("import", "PNG (level 0, then optional further levels) into a Texm");
  imp->add_option("inputs", im->inputs, "PNG files, level 0 first")->required();
  imp->add_option("--out,-o", im->out, "the Texm file to write")->required();
  auto format = std::make_shared<std::uint32_t>(0);
  auto mips = std::make_shared<std::uint32_t>(0);
  auto* f = imp->add_option("--format", *format, "Texm format: 0, 565, 556, 4444, 88, 888, 8888");
  auto* m = add_number(imp, "--mips", *mips, "levels to write (default: the chunk's, else the full chain)", 1u, 32u);
  imp->add_flag("--json", *json, "print the files as JSON");
  imp->callback([im, format, mips, f, m, json, &outcome] {
    if (f->count() > 0) im->format = *format;
    if (m->count() > 0) im->mips = *mips;
    outcome.exit_code = print_written(interchange::import_texture_file(*im), *json);
  });
});

}  // namespace sortie::cli
