#include "dra/doctor/check_table.h"

namespace mc::dra {

std::size_t CheckOrder(std::string_view id) {
  for (std::size_t i = 0; i < std::size(kChecks); ++i) {
    if (kChecks[i].id == id) return i;
  }
  return std::size(kChecks);
}

}  // namespace mc::dra
