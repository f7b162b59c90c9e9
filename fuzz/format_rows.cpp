// Fuzzes the rows libs/formats adds to the format table (target fuzz_format_rows): the weather
// schedule and the sample manifest. Accepted input: check agrees with inspect; the weather row
// writes the input back byte for byte; the manifest's canonical form reads back and is a fixed
// point. Detection never crashes on any input.
#include <cstddef>
#include <cstdint>

#include "sortie/formats/formats.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sortie;
  const core::ByteView in(data, size);
  (void)formats::detect_format(in, "fuzz.weather");
  for (const char* name : {"weather", "sample_manifest"}) {
    const formats::FormatInfo* f = formats::find_format(name);
    if (f == nullptr) __builtin_trap();
    const formats::ReadOptions o{core::Profile::strict, "fuzz"};
    const auto report = f->check(in, o);
    const auto json = f->inspect(in, o);
    if (report.has_value() != json.has_value()) __builtin_trap();
    if (!report) continue;
    (void)core::dump_json(*json);
    const auto written = f->roundtrip(in, o);
    if (!written) __builtin_trap();
    if (f->name == "weather" && *written != core::Bytes(in.begin(), in.end())) __builtin_trap();
    const auto again = f->roundtrip(*written, o);
    if (!again || *again != *written) __builtin_trap();
  }
  return 0;
}
