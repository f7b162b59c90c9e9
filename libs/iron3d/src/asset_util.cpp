#include "asset_util.hpp"

#include <fmt/format.h>

#include "sortie/core/text.hpp"

namespace sortie::iron3d::detail {

bool has_extension(std::string_view file_name, std::string_view ext) {
  return core::iends_with_ascii(file_name, ext);
}

core::Result<core::FixedString> make_fixed(std::string_view text, std::size_t size, std::string_view what) {
  if (text.size() >= size || text.find('\0') != std::string_view::npos)
    return core::fail(core::Diagnostic::error("builder.name", fmt::format("{} does not fit its fixed field", what))
                          .expect(fmt::format("< {} bytes, no NUL", size), fmt::format("{} bytes", text.size())));
  return core::FixedString::make(text, size);
}

}  // namespace sortie::iron3d::detail
