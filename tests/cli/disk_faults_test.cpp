// Faults on disk (issue #21 part 3): every command that writes, run with a failure injected at
// each step of its write (creating the temporary, writing, flushing, renaming; ENOSPC, EIO and
// EROFS, through core/file_io's SORTIE_FAULT hook), and against an output that is a directory
// or a symbolic link: exit 2, a message naming the path, the old file intact byte for byte and
// no temporary left behind.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>

#include "cli_harness.hpp"
#include "sortie_test/corpus.hpp"
#include "sortie_test/sanitizers.hpp"

namespace sortie::cli_test {
namespace {

// One writing command: `prepare` makes its inputs in `dir` (an unfaulted run may be part of it)
// and returns the arguments and the files that must stay as they were.
struct WritingCommand {
  std::string name;
  std::function<std::pair<std::vector<std::string>, std::vector<fs::path>>(const fs::path& dir)> prepare;
};

std::string first_entry(const fs::path& archive) {
  const auto r = run_sortie({"archive", "list", "--json", archive.string()});
  const core::Json name = r.json()["entries"][0]["name"];  // NRes: text; RsLi: {"text": ...}
  return name.is_string() ? name.get<std::string>() : name.value("text", std::string());
}

void old(const fs::path& p) {
  write_text(p, "the old file\n");
}

std::vector<WritingCommand> writing_commands() {
  const fs::path sample = sample_dir();
  return {
      {"archive add",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         fs::copy_file(sample / "material.lib", d / "material.lib");
         write_text(d / "NEW.bin", "payload");
         return {{"archive", "add", (d / "material.lib").string(), (d / "NEW.bin").string()}, {d / "material.lib"}};
       }},
      {"archive rename",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         fs::copy_file(sample / "textures.lib", d / "textures.lib");
         return {{"archive", "rename", (d / "textures.lib").string(), first_entry(d / "textures.lib"), "RENAMED"},
                 {d / "textures.lib"}};
       }},
      {"archive remove",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         fs::copy_file(sample / "objects.rlb", d / "objects.rlb");
         return {{"archive", "remove", (d / "objects.rlb").string(), first_entry(d / "objects.rlb")},
                 {d / "objects.rlb"}};
       }},
      {"archive pack",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         EXPECT_EQ(
             run_sortie({"archive", "extract", (sample / "textures.lib").string(), "-o", (d / "x").string()}).exit_code,
             0);
         old(d / "packed.lib");
         return {{"archive", "pack", (d / "x").string(), "-o", (d / "packed.lib").string()}, {d / "packed.lib"}};
       }},
      {"tma edit",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         fs::copy_file(sample / "MISSIONS/m01/data.tma", d / "data.tma");
         return {
             {"tma", "edit", (d / "data.tma").string(), "--move", "0", "1", "2", "3", "-o", (d / "data.tma").string()},
             {d / "data.tma"}};
       }},
      {"render",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         old(d / "m.png");
         return {{"render", sample.string(), "-m", "m01", "-o", (d / "m.png").string(), "--size", "64x36"},
                 {d / "m.png"}};
       }},
      {"sound decode",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         old(d / "s.wav");
         return {{"sound", "decode", (sample / "sounds.lib").string(), first_entry(sample / "sounds.lib"), "-o",
                  (d / "s.wav").string()},
                 {d / "s.wav"}};
       }},
      {"run --save-at",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         old(d / "t.save");
         return {{"run", sample.string(), "--ticks", "8", "--save-at", "4", "--save", (d / "t.save").string()},
                 {d / "t.save"}};
       }},
      {"fomap fmt",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         // The map fomap_test uses, with an extra blank line between sections: not canonical, so
         // fmt rewrites it in place.
         const fs::path corpus = test::fomap_corpus();
         if (corpus.empty()) return {{}, {}};
         std::string text(core::as_chars(file_bytes(corpus / "new/cvet__fonline-tla/Maps/arroyo_bridge.fomap")));
         text.insert(text.find("\n[", 1) + 1, "\n\n");
         write_text(d / "m.fomap", text);
         return {{"fomap", "fmt", "--protos", (corpus / "protos/cvet__fonline-tla").string(), (d / "m.fomap").string()},
                 {d / "m.fomap"}};
       }},
      {"fomap migrate",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         const fs::path corpus = test::fomap_corpus();
         if (corpus.empty()) return {{}, {}};
         old(d / "migrated.fomap");
         return {{"fomap", "migrate", (corpus / "old/cvet__fonline-tla@592a721fa1/Maps/sad_powersub.fomap").string(),
                  "-o", (d / "migrated.fomap").string()},
                 {d / "migrated.fomap"}};
       }},
      {"fomap bake",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         const fs::path corpus = test::fomap_corpus();
         if (corpus.empty()) return {{}, {}};
         const fs::path map = corpus / "new/cvet__fonline-tla/Maps/arroyo_bridge.fomap";
         const std::vector<std::string> bake{"fomap",     "bake",
                                             "--protos",  (corpus / "protos/cvet__fonline-tla").string(),
                                             "-o",        (d / "baked").string(),
                                             map.string()};
         EXPECT_EQ(run_sortie(bake).exit_code, 0);  // the old pair, then baked again under the fault
         std::vector<fs::path> pair;
         for (const auto& e : fs::directory_iterator(d / "baked")) pair.push_back(e.path());
         return {bake, pair};
       }},
      {"sample",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         fs::create_directories(d / "game");
         fs::copy_file(sample / "material.lib", d / "game/material.lib");
         return {{"sample", (d / "game").string()}, {d / "game/material.lib"}};
       }},
      {"texture export",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         old(d / "t.png");
         return {{"texture", "export", (sample / "textures.lib").string(), first_entry(sample / "textures.lib"), "-o",
                  (d / "t.png").string()},
                 {d / "t.png"}};
       }},
      {"texture import",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         EXPECT_EQ(run_sortie({"texture", "export", (sample / "textures.lib").string(),
                               first_entry(sample / "textures.lib"), "-o", (d / "in.png").string()})
                       .exit_code,
                   0);
         old(d / "t.texm");
         return {{"texture", "import", (d / "in.png").string(), "-o", (d / "t.texm").string()}, {d / "t.texm"}};
       }},
      {"export model",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         old(d / "u.glb");
         return {{"export", "model", "UNITS\\TANKS\\u_000.dat", sample.string(), "-o", (d / "u.glb").string()},
                 {d / "u.glb"}};
       }},
      {"export mission",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         old(d / "m.gltf");
         old(d / "m.bin");
         return {{"export", "mission", sample.string(), "-m", "m01", "-o", (d / "m.gltf").string()},
                 {d / "m.gltf", d / "m.bin"}};
       }},
      {"import model",
       [=](const fs::path& d) -> std::pair<std::vector<std::string>, std::vector<fs::path>> {
         EXPECT_EQ(
             run_sortie({"export", "model", "UNITS\\TANKS\\u_000.dat", sample.string(), "-o", (d / "u.glb").string()})
                 .exit_code,
             0);
         fs::create_directories(d / "game");
         for (const char* f : {"material.lib", "textures.lib", "objects.rlb"})
           fs::copy_file(sample / f, d / "game" / f);
         return {{"import", "model", (d / "u.glb").string(), (d / "game").string(), "--name", "faulty"},
                 {d / "game/material.lib", d / "game/textures.lib", d / "game/objects.rlb"}};
       }},
  };
}

std::size_t temporaries(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.path().filename().string().find(".tmp.") != std::string::npos) ++n;
  return n;
}

// Under the sanitizers every run of the binary is several times slower: ENOSPC alone at each
// step there (the release tree runs every fault).
constexpr bool kSanitized = sortie::test::kAddressSanitizer;

class CliDiskFaultTest : public CliTest {};

TEST_F(CliDiskFaultTest, every_writing_command_under_every_injected_fault_keeps_the_old_file) {
  std::size_t runs = 0;
  for (const auto& command : writing_commands()) {
    for (const std::string step : {"create", "write", "fsync", "rename"}) {
      for (const std::string err : {"ENOSPC", "EIO", "EROFS"}) {
        if (err == "EROFS" && step != "create") continue;  // a read-only mount refuses the first write
        if (kSanitized && err != "ENOSPC") continue;
        SCOPED_TRACE(command.name + " at " + step + " with " + err);
        const fs::path d = dir_ / fmt::format("{}-{}-{}", runs, step, err);
        fs::create_directories(d);
        auto [args, kept] = command.prepare(d);
        if (args.empty()) continue;  // no fomap corpus here
        std::vector<std::pair<fs::path, core::Bytes>> before;
        for (const auto& k : kept) before.emplace_back(k, file_bytes(k));
        std::vector<std::string> all{"SORTIE_FAULT=" + step + ":" + err, sortie_test_sortie_bin};
        all.insert(all.end(), args.begin(), args.end());
        const RunResult r = run_program("env", all);
        ++runs;
        EXPECT_EQ(r.exit_code, 2) << r.all();
        EXPECT_NE(r.err.find(d.string()), std::string::npos) << "the message names no file it writes: " << r.err;
        for (const auto& [path, bytes] : before) EXPECT_EQ(file_bytes(path), bytes) << path;
        EXPECT_EQ(temporaries(d), 0u);
      }
    }
  }
  EXPECT_GE(runs, 14u * (kSanitized ? 4u : 9u));
}

TEST_F(CliDiskFaultTest, an_output_that_is_a_directory_or_a_link_is_not_damaged) {
  const fs::path dir_target = dir_ / "out.png";
  fs::create_directories(dir_target / "inside");
  write_text(dir_target / "inside/keep.txt", "keep");
  auto r = run_sortie({"render", sample_dir().string(), "-m", "m01", "-o", dir_target.string(), "--size", "64x36"});
  EXPECT_EQ(r.exit_code, 2) << r.all();
  EXPECT_NE(r.err.find("out.png"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_directory(dir_target));
  EXPECT_EQ(file_bytes(dir_target / "inside/keep.txt"), core::Bytes({'k', 'e', 'e', 'p'}));
  EXPECT_EQ(temporaries(dir_), 0u);
  // An output that is a symbolic link: the link is replaced by the new file; what it pointed to
  // keeps its bytes.
  write_text(dir_ / "target.glb", "the old file\n");
  fs::create_symlink(dir_ / "target.glb", dir_ / "link.glb");
  r = run_sortie(
      {"export", "model", "UNITS\\TANKS\\u_000.dat", sample_dir().string(), "-o", (dir_ / "link.glb").string()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  const std::string_view kept = "the old file\n";
  EXPECT_EQ(file_bytes(dir_ / "target.glb"), core::Bytes(kept.begin(), kept.end()));
}

}  // namespace
}  // namespace sortie::cli_test
