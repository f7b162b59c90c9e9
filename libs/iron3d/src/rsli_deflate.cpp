// Raw Deflate of RsLi method 0x100 (spec §4.4.3), through zlib with -15 window bits.
#include <fmt/format.h>
#include <zlib.h>

#include <limits>

#include "sortie/iron3d/rsli_codec.hpp"

namespace sortie::iron3d {
namespace {

// Owns an inflate or deflate z_stream and ends it on scope exit.
class ZStream {
 public:
  explicit ZStream(bool inflating) : inflating_(inflating) {}
  ZStream(const ZStream&) = delete;
  ZStream& operator=(const ZStream&) = delete;
  ~ZStream() {
    if (!ready_) return;
    if (inflating_) {
      inflateEnd(&s_);
    } else {
      deflateEnd(&s_);
    }
  }
  z_stream* get() { return &s_; }
  void set_ready() { ready_ = true; }

 private:
  z_stream s_{};
  bool inflating_;
  bool ready_ = false;
};

// zlib counts in uInt; RsLi payloads are bounded far below that by the archive reader.
constexpr std::size_t kZMax = std::numeric_limits<uInt>::max() - 1;

}  // namespace

core::Result<core::Bytes> inflate_raw(core::ByteView packed, std::size_t unpacked_size) {
  if (packed.size() > kZMax || unpacked_size > kZMax)
    return core::fail(core::Diagnostic::error("rsli.deflate.corrupt", "Deflate stream too large for zlib")
                          .expect(fmt::format("<= {} bytes", kZMax), fmt::format("{} bytes", packed.size())));
  if (unpacked_size > packed.size() * kDeflateMaxRatio + 1024)
    return core::fail(
        core::Diagnostic::error("rsli.size_mismatch", "declared unpacked size cannot come from this many Deflate bytes")
            .at(0)
            .expect(fmt::format("<= {} bytes", packed.size() * kDeflateMaxRatio + 1024),
                    fmt::format("{} bytes", unpacked_size)));
  ZStream z(true);
  z_stream* s = z.get();
  if (inflateInit2(s, -15) != Z_OK)
    return core::fail(core::Diagnostic::error("rsli.deflate.corrupt", "zlib inflateInit2 failed"));
  z.set_ready();
  // One guard byte past the declared size: any output there means the stream overruns it.
  core::Bytes out(unpacked_size + 1);
  s->next_in = const_cast<Bytef*>(packed.data());
  s->avail_in = static_cast<uInt>(packed.size());
  s->next_out = out.data();
  s->avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(s, Z_FINISH);
  const std::size_t consumed = packed.size() - s->avail_in;
  const std::size_t produced = s->total_out;
  if (produced > unpacked_size)
    return core::fail(
        core::Diagnostic::error("rsli.deflate.overrun", "Deflate output exceeds the declared unpacked size")
            .at(consumed)
            .expect(fmt::format("{} bytes", unpacked_size), fmt::format("more than {}", unpacked_size)));
  if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR || rc == Z_MEM_ERROR)
    return core::fail(core::Diagnostic::error("rsli.deflate.corrupt", fmt::format("invalid raw Deflate stream: {}",
                                                                                  s->msg ? s->msg : "zlib error"))
                          .at(consumed)
                          .expect("a raw RFC 1951 stream (no zlib header)", fmt::format("zlib code {}", rc)));
  if (rc != Z_STREAM_END)
    return core::fail(core::Diagnostic::error("rsli.deflate.truncated", "Deflate stream ends before its final block")
                          .at(consumed)
                          .expect(fmt::format("{} bytes of output", unpacked_size), fmt::format("{} bytes", produced)));
  if (produced != unpacked_size)
    return core::fail(core::Diagnostic::error("rsli.size_mismatch", "Deflate stream gives fewer bytes than declared")
                          .at(consumed)
                          .expect(fmt::format("{} bytes", unpacked_size), fmt::format("{} bytes", produced)));
  out.resize(unpacked_size);
  return out;
}

core::Result<core::Bytes> deflate_raw(core::ByteView data, int level) {
  if (data.size() > kZMax / 2)
    return core::fail(core::Diagnostic::error("rsli.deflate.encode", "input too large for one Deflate call"));
  ZStream z(false);
  z_stream* s = z.get();
  if (deflateInit2(s, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return core::fail(core::Diagnostic::error("rsli.deflate.encode", "zlib deflateInit2 failed")
                          .expect("level 0..9", fmt::format("{}", level)));
  z.set_ready();
  core::Bytes out(deflateBound(s, static_cast<uLong>(data.size())));
  s->next_in = const_cast<Bytef*>(data.data());
  s->avail_in = static_cast<uInt>(data.size());
  s->next_out = out.data();
  s->avail_out = static_cast<uInt>(out.size());
  if (deflate(s, Z_FINISH) != Z_STREAM_END)
    return core::fail(core::Diagnostic::error("rsli.deflate.encode", "zlib deflate did not finish"));
  out.resize(s->total_out);
  return out;
}

}  // namespace sortie::iron3d
