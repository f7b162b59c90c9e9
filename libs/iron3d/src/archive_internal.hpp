#pragma once
// Helpers shared by the archive facade's source files (archive.cpp, archive_edit.cpp).
#include <string>
#include <string_view>

#include "sortie/core/diagnostic.hpp"

namespace sortie::iron3d::detail {

// A user's (UTF-8) entry name as archive bytes: Windows-1251 when it converts, else as given.
std::string archive_name(std::string_view utf8);
// The diagnostic, with `file` when it names none.
core::Diagnostic located(core::Diagnostic d, const std::string& file);

}  // namespace sortie::iron3d::detail
