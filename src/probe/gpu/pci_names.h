// Product names from the PCI ID database (pci.ids). So `kubectl get resourceslice` shows which GPU
// a device is, in lspci's words.
//
// libpci answers the same question. But it parses and hashes the whole 1.3 MB database before its
// first answer. That took two thirds of a one-node probe, for one or two names. The database's
// format is plain and stable. The file's head describes it:
// - a vendor line "vvvv  name";
// - its devices below it as "\tdddd  name".
//
// So this looks up one name by a direct search of the file. A test checks every answer against
// libpci's.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::probe {

// Where distributions install pci.ids: Debian's pci.ids package, then hwdata.
inline const std::vector<std::string> kPciIdsPaths = {"/usr/share/misc/pci.ids",
                                                      "/usr/share/hwdata/pci.ids"};

// FindPciDeviceName looks up a device in the text of a pci.ids file. It gives its name, such as
// "Alder Lake-P Integrated Graphics Controller". Empty when the database does not list it.
std::string FindPciDeviceName(std::string_view database, unsigned vendor_id, unsigned device_id);

// MappedFile maps a file for reading. The search touches only the pages it passes. It makes no copy
// of the 1.3 MB file. An unreadable file maps as empty text.
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
  // The database is the first readable file of `paths`. It is read once, on the first look-up.
  explicit PciNames(std::vector<std::string> paths = kPciIdsPaths);

  // DeviceName gives the database's name of the device. Empty when there is no database or it lacks
  // the device.
  std::string DeviceName(unsigned vendor_id, unsigned device_id);

 private:
  std::vector<std::string> paths_;
  // Mapped on the first look-up. A probe that needs no name reads nothing.
  std::unique_ptr<MappedFile> database_;
  // Answers already found. A machine's GPUs are often of one model. Each search walks much of the
  // file.
  std::map<std::pair<unsigned, unsigned>, std::string> found_;
};

}  // namespace mc::probe
