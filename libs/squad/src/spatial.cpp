#include "sortie/squad/spatial.hpp"

#include <algorithm>

namespace sortie::squad {

void BodyGrid::reset(float width, float height, float cell) {
  cell_ = cell > 0.0f ? cell : 1.0f;
  inv_cell_ = 1.0f / cell_;
  cols_ = std::max(1, static_cast<int>(std::ceil(width * inv_cell_)));
  rows_ = std::max(1, static_cast<int>(std::ceil(height * inv_cell_)));
  start_.assign(static_cast<std::size_t>(cols_) * static_cast<std::size_t>(rows_) + 1, 0);
  items_.clear();
}

}  // namespace sortie::squad
