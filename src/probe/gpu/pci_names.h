// Product names from the PCI ID database (pci.ids), so that `kubectl get resourceslice`
// shows which GPU a device is about in the words lspci uses.
//
// libpci answers the same question, but it parses and hashes the whole 1.3 MB database
// before its first answer: 10.8 ms here, two thirds of a one-node probe, for the one or two
// names a probe needs. The database's format is plain and stable (described at the head
// of the file: a vendor line "vvvv  name", its devices below it as "\tdddd  name"), so
// this looks up one name by a direct search of the file. A test checks every answer
// against libpci's.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::probe {

// The places distributions install pci.ids: Debian's pci.ids package, then hwdata.
inline const std::vector<std::string> kPciIdsPaths = {"/usr/share/misc/pci.ids",
                                                      "/usr/share/hwdata/pci.ids"};

// FindPciDeviceName looks up a device in the text of a pci.ids file and gives its name,
// such as "Alder Lake-P Integrated Graphics Controller", or an empty string when the
// database does not list it.
std::string FindPciDeviceName(std::string_view database, unsigned vendor_id, unsigned device_id);

// MappedFile maps a file for reading; the search then touches only the pages it passes,
// with no copy of the 1.3 MB file. An unreadable file maps as empty text.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view text() const { return {data_ ? data_ : "", size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

class PciNames {
 public:
  // The first readable file of `paths` is the database, read once, on the first look-up.
  explicit PciNames(std::vector<std::string> paths = kPciIdsPaths);

  // DeviceName gives the database's name of the device, or an empty string when there is
  // no database or it does not list the device.
  std::string DeviceName(unsigned vendor_id, unsigned device_id);

 private:
  std::vector<std::string> paths_;
  // Mapped on the first look-up, so a probe that needs no name reads nothing.
  std::unique_ptr<MappedFile> database_;
  // Answers already found: a machine's GPUs are often of one model, and each search
  // walks much of the file.
  std::map<std::pair<unsigned, unsigned>, std::string> found_;
};

}  // namespace mc::probe
