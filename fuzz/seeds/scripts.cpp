// Seeds for the script, control and sound fuzz targets (scr, varset, fml, trf, script_bundle, ctld,
// wave), written by sortie's own writers.
#include <cmath>

#include "seeds.hpp"
#include "sortie/iron3d/ctld.hpp"
#include "sortie/iron3d/scr.hpp"
#include "sortie/iron3d/trf.hpp"
#include "sortie/iron3d/varset.hpp"
#include "sortie/iron3d/wave.hpp"

using namespace sortie;
using namespace sortie::iron3d;

SORTIE_FUZZ_SEEDS(scr, [](fuzz::SeedSink& out) {
  ScrPackage p;
  ScrEvent init{"Init", 9, {}};
  init.instructions.push_back({{19, 0, 0, 0, 0}, {224, 225, 226}, 0});
  init.instructions.push_back({{0xFFFFFFFFu, 1, 2, 3, 4}, {}, 5});
  p.events.push_back(init);
  p.events.push_back({"Mission", 0, {}});
  out.add("init", write_scr(p));
  p.trailing = {0xAA, 0xBB};
  out.add("trailing", write_scr(p));
  out.add("empty", write_scr(ScrPackage{}));
});

SORTIE_FUZZ_SEEDS(varset, [](fuzz::SeedSink& out) {
  out.add("two", write_varset(*build_varset({{VarType::dword, "ClanID", "0x10"}, {VarType::float32, "f0", "0.5"}},
                                            {{"Name", "value"}})));
  const std::string ranged = "// c\r\nVAR(DWORD, level, 3, 0, 0x10);\r\nFUNCTION(x)\r\n";
  out.add("ranged", core::Bytes(ranged.begin(), ranged.end()));
});

SORTIE_FUZZ_SEEDS(ctld, [](fuzz::SeedSink& out) {
  out.add("rows", write_ctld(build_ctld(1, 1,
                                        {make_ctld_row(1, 0.0f, 10.0f, 0.5f, 0), make_ctld_row(1, 0.0f, 10.0f, 1.5f, 1),
                                         make_ctld_row(2, -1.0f, -1.0f, 0.0f, 4)},
                                        0, 0, core::Bytes{1, 2, 3})));
  out.add("common", write_ctld(build_ctld(0, 0, {}, 1, 0, core::Bytes(264, 0))));
});

SORTIE_FUZZ_SEEDS(wave, [](fuzz::SeedSink& out) {
  std::vector<std::int16_t> pcm(64);
  for (std::size_t i = 0; i < pcm.size(); ++i) pcm[i] = static_cast<std::int16_t>(8000.0 * std::sin(0.3 * i));
  out.add("pcm16", write_wave(make_pcm16_wave(22050, 1, pcm)));
  WaveFormat f;
  f.format_tag = kWaveFormatMsAdpcm, f.channels = 1, f.sample_rate = 22050, f.block_align = 16;
  f.bits_per_sample = 4, f.samples_per_block = 20, f.byte_rate = 22050 * 16 / 20;
  const auto coef = ms_adpcm_standard_coefficients();
  f.coefficients.assign(coef.begin(), coef.end());
  core::Bytes blocks(32, 0x3C);
  blocks[0] = 1, blocks[1] = 16, blocks[2] = 0;  // predictor 1, delta 16
  blocks[16] = 5, blocks[17] = 40, blocks[18] = 0;
  out.add("adpcm", write_wave(make_wave(f, blocks, 40)));
  f.channels = 2, f.block_align = 32, f.samples_per_block = 20;
  blocks.assign(32, 0x5A);
  blocks[0] = 0, blocks[1] = 6;
  out.add("adpcm_stereo", write_wave(make_wave(f, blocks)));
  // Our encoder's output: three 20-frame blocks and a short last one.
  std::vector<std::int16_t> stereo(std::size_t{2} * 67);
  for (std::size_t i = 0; i < stereo.size(); ++i) stereo[i] = static_cast<std::int16_t>(9000.0 * std::sin(0.2 * i));
  if (auto e = encode_ms_adpcm(22050, 2, stereo, {20})) out.add("adpcm_encoded", write_wave(*e));
});

SORTIE_FUZZ_SEEDS(fml, [](fuzz::SeedSink& out) {
  const std::string text = "// formulas\r\nfPatrolRadius = 25.0 // r\r\n\r\nx=y\n";
  out.add("lines", core::Bytes(text.begin(), text.end()));
  out.add("empty", core::Bytes{});
});

SORTIE_FUZZ_SEEDS(trf, [](fuzz::SeedSink& out) {
  if (auto t = build_trf({"w_gun01", "t_tower02", "b_depot"})) out.add("three", std::move(*t));
  if (auto t = build_trf({})) out.add("empty", std::move(*t));
});

// The bundle loader's layout: u16 length + package, u16 length + varset, u16 length + TRF, then
// the formula export.
SORTIE_FUZZ_SEEDS(script_bundle, [](fuzz::SeedSink& out) {
  ScrPackage p;
  p.events.push_back({"Init", 0, {{{19, 0, 0, 0, 0}, {1, 2, 3}, 0}}});
  p.events.push_back({"Mission", 1, {{{2, 0, 0, 0, 0}, {0, 4, 0, 0, 4, 4, 4}, 0}, {{30, 0, 0, 0, 0}, {0, 0}, 0}}});
  p.events.push_back({"Win", 2, {{{30, 0, 0, 0, 0}, {0, 5}, 0}, {{8, 0, 0, 0, 0}, {5}, 0}}});
  const core::Bytes scr = write_scr(p);
  const std::string var =
      "VAR(DWORD, Base, 7)\nVAR(DWORD, X, 0)\nVAR(DWORD, Y, 0)\nVAR(DWORD, ID, 0)\nVAR(float, f, 0.5)\n"
      "VAR(DWORD, ONE, 1)\n";
  const core::Bytes trf = build_trf({"a", "b"}).value_or(core::Bytes{});
  const std::string fml = "x = 1\r\n";
  core::Bytes seed;
  auto put = [&](const core::Bytes& b) {
    seed.push_back(static_cast<std::uint8_t>(b.size() & 0xFF));
    seed.push_back(static_cast<std::uint8_t>(b.size() >> 8));
    seed.insert(seed.end(), b.begin(), b.end());
  };
  put(scr);
  put(core::Bytes(var.begin(), var.end()));
  put(trf);
  seed.insert(seed.end(), fml.begin(), fml.end());
  out.add("bundle", std::move(seed));
});
