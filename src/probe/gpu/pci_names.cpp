#include "probe/gpu/pci_names.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mc::probe {
namespace {

std::string Hex4(unsigned id) {
  char text[8];
  std::snprintf(text, sizeof text, "%04x", id & 0xFFFFu);
  return text;
}

// LineAt gives the line starting at `start`, without its newline.
std::string_view LineAt(std::string_view text, std::size_t start) {
  const std::size_t end = text.find('\n', start);
  return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// NameOf gives what follows the id and two spaces on an entry line.
std::string NameOf(std::string_view line, std::size_t id_end) {
  if (line.size() < id_end + 2 || line.substr(id_end, 2) != "  ") return {};
  std::string_view name = line.substr(id_end + 2);
  while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.remove_suffix(1);
  return std::string(name);
}

}  // namespace

std::string FindPciDeviceName(std::string_view database, unsigned vendor_id, unsigned device_id) {
  // A vendor line starts with the four-digit id and two spaces.
  const std::string vendor_key = Hex4(vendor_id) + "  ";
  std::size_t vendor = database.starts_with(vendor_key) ? 0 : std::string_view::npos;
  if (vendor == std::string_view::npos) {
    // memmem is glibc's two-way search. It is several times faster here than string_view::find.
    // That stops at every newline of the 36,000-line file.
    const std::string needle = "\n" + vendor_key;
    const void* found = memmem(database.data(), database.size(), needle.data(), needle.size());
    if (!found) return {};
    vendor = static_cast<std::size_t>(static_cast<const char*>(found) - database.data()) + 1;
  }
  // The vendor's devices follow, each on a line starting with one tab. The block ends at the next
  // line starting with neither a tab nor a comment.
  const std::string device_key = "\t" + Hex4(device_id);
  std::size_t line = database.find('\n', vendor);
  while (line != std::string_view::npos && line + 1 < database.size()) {
    const std::size_t start = line + 1;
    const char first = database[start];
    if (first != '\t' && first != '#' && first != '\n') break;
    const std::string_view entry = LineAt(database, start);
    if (entry.starts_with(device_key)) {
      if (std::string name = NameOf(entry, device_key.size()); !name.empty()) return name;
    }
    line = database.find('\n', start);
  }
  return {};
}

MappedFile::MappedFile(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat status {};
  if (fstat(fd, &status) == 0 && status.st_size > 0) {
    void* data =
        mmap(nullptr, static_cast<std::size_t>(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (data != MAP_FAILED) {
      data_ = static_cast<const char*>(data);
      size_ = static_cast<std::size_t>(status.st_size);
    }
  }
  close(fd);
}

MappedFile::~MappedFile() {
  if (data_) munmap(const_cast<char*>(data_), size_);
}

PciNames::PciNames(std::vector<std::string> paths) : paths_(std::move(paths)) {}

std::string PciNames::DeviceName(unsigned vendor_id, unsigned device_id) {
  if (!database_) {
    for (const std::string& path : paths_) {
      database_ = std::make_unique<MappedFile>(path);
      if (!database_->text().empty()) break;
    }
    if (!database_) database_ = std::make_unique<MappedFile>("");
  }
  const auto key = std::make_pair(vendor_id, device_id);
  if (auto it = found_.find(key); it != found_.end()) return it->second;
  return found_[key] = FindPciDeviceName(database_->text(), vendor_id, device_id);
}

}  // namespace mc::probe
