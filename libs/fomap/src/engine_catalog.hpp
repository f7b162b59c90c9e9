#pragma once
#include <string_view>
#include <vector>

namespace sortie::fomap::detail {

struct EngineProperty {
  std::string_view receiver;
  std::string_view name;
  std::string_view type;
  bool authorable;
  std::string_view excluded_reason;
  bool server_only;
  bool client_only;
  bool resource;
  bool nullable;
  std::string_view script_func;
};

const std::vector<EngineProperty>& engine_properties();

}  // namespace sortie::fomap::detail
