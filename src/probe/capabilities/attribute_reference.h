// The attribute reference in docs/ is generated from the capability table. So the documentation
// says exactly what the code does. `media-capabilities docs attributes` prints it. A test checks
// that the committed file is the same.
#pragma once

#include <string>

namespace mc::probe {

std::string AttributeReferenceMarkdown();

}  // namespace mc::probe
