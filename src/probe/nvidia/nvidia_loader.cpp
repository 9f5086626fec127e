#include "probe/nvidia/nvidia_loader.h"

#include <cstdarg>
#include <cstdio>

namespace mc::probe::nvidia_loader {

void Log(void* log, const char* format, ...) {
  if (!log) return;
  char buffer[512];
  va_list arguments;
  va_start(arguments, format);
  std::vsnprintf(buffer, sizeof buffer, format, arguments);
  va_end(arguments);
  std::string& text = *static_cast<std::string*>(log);
  std::string line(buffer);
  while (!line.empty() && line.back() == '\n') line.pop_back();
  if (!text.empty()) text += "; ";
  text += line;
}

}  // namespace mc::probe::nvidia_loader
