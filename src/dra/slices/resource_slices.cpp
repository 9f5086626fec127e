#include "dra/slices/resource_slices.h"

#include <algorithm>

#include "common/base/json_path.h"
#include "common/base/json_text.h"
#include "probe/devices/device_json.h"

namespace mc::dra {
namespace {

using Json = nlohmann::json;

std::int64_t PoolGeneration(const Json& slice) {
  return JsonIntAt(slice, {"spec", "pool", "generation"}).value_or(0);
}

std::string MetadataField(const Json& slice, const char* field) {
  return JsonStringAt(slice, {"metadata", field});
}

Json OwnerReferences(const SliceOwner& owner) {
  return Json::array({{{"apiVersion", "v1"},
                       {"kind", "Node"},
                       {"name", owner.node_name},
                       {"uid", owner.node_uid},
                       {"controller", true}}});
}

// The spec the agent would send for one slice.
// It is a plain, sorted json.
// So comparing it with the server's form does not depend on the order of keys.
Json SliceSpec(const SliceOwner& owner, const std::vector<probe::Device>& devices,
               std::int64_t generation, std::size_t slice_count) {
  Json spec = {{"driver", owner.driver},
               {"nodeName", owner.node_name},
               {"pool",
                {{"name", owner.node_name},
                 {"generation", generation},
                 {"resourceSliceCount", static_cast<std::int64_t>(slice_count)}}}};
  // An empty list is left out, as the server does (devices,omitempty).
  if (!devices.empty()) spec["devices"] = Json::parse(JsonText(probe::DevicesJsonValue(devices)));
  return spec;
}

bool HoldsSpec(const Json& slice, const std::string& name, const Json& spec,
               const std::map<std::string, StoredForm>& stored_forms) {
  const Json* held_spec = JsonAt(slice, {"spec"});
  if (!held_spec) return false;
  const Json& held = *held_spec;
  if (held == spec) return true;
  auto form = stored_forms.find(name);
  return form != stored_forms.end() && form->second.sent_spec == spec &&
         form->second.stored_spec == held;
}

bool HasOwner(const Json& slice, const Json& owner_references) {
  const Json* held = JsonAt(slice, {"metadata", "ownerReferences"});
  return held && *held == owner_references;
}

void Differences(const Json& sent, const Json& stored, const std::string& path,
                 std::vector<std::string>& out) {
  if (sent == stored) return;
  if (sent.is_object() && stored.is_object()) {
    for (const auto& [key, value] : sent.items()) {
      const std::string where = path + "." + key;
      if (!stored.contains(key)) {
        out.push_back(where);
      } else {
        Differences(value, stored[key], where, out);
      }
    }
    for (const auto& [key, value] : stored.items()) {
      if (!sent.contains(key)) out.push_back(path + "." + key + " (added by the server)");
    }
    return;
  }
  if (sent.is_array() && stored.is_array() && sent.size() == stored.size()) {
    for (std::size_t i = 0; i < sent.size(); ++i) {
      Differences(sent[i], stored[i], path + "[" + std::to_string(i) + "]", out);
    }
    return;
  }
  out.push_back(path);
}

}  // namespace

std::string SliceName(const SliceOwner& owner, std::size_t index) {
  std::string name = owner.node_name + "-" + owner.driver;
  if (index > 0) name += "-" + std::to_string(index);
  return name;
}

std::vector<SliceWrite> PlanSliceWrites(const SliceOwner& owner, std::vector<probe::Device> devices,
                                        const std::map<std::string, Json>& current,
                                        const std::map<std::string, StoredForm>& stored_forms) {
  std::ranges::sort(devices, {}, &probe::Device::name);
  // A pool with no device is still published, as one empty slice.
  // It says the node is served and has no GPU.
  // A reader can tell that apart from a node whose agent never ran.
  std::vector<std::vector<probe::Device>> chunks;
  for (std::size_t i = 0; i < devices.size(); i += kMaxDevicesPerSlice) {
    const auto end = devices.begin() +
                     static_cast<std::ptrdiff_t>(std::min(devices.size(), i + kMaxDevicesPerSlice));
    chunks.emplace_back(devices.begin() + static_cast<std::ptrdiff_t>(i), end);
  }
  if (chunks.empty()) chunks.emplace_back();

  std::int64_t held_generation = 0;
  for (const auto& [name, slice] : current)
    held_generation = std::max(held_generation, PoolGeneration(slice));

  const Json owner_references = OwnerReferences(owner);
  std::vector<std::string> names;
  bool up_to_date = true;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    names.push_back(SliceName(owner, i));
    auto held = current.find(names.back());
    up_to_date =
        up_to_date && held != current.end() && HasOwner(held->second, owner_references) &&
        HoldsSpec(held->second, names.back(),
                  SliceSpec(owner, chunks[i], held_generation, chunks.size()), stored_forms);
  }

  std::vector<SliceWrite> writes;
  for (const auto& [name, slice] : current) {
    if (std::ranges::find(names, name) != names.end()) continue;
    writes.push_back({.kind = SliceWrite::Kind::kDelete,
                      .name = name,
                      .uid = MetadataField(slice, "uid"),
                      .resource_version = MetadataField(slice, "resourceVersion")});
  }
  if (up_to_date) return writes;

  const std::int64_t generation = held_generation + 1;
  std::vector<SliceWrite> creates;
  for (std::size_t i = 0; i < chunks.size(); ++i) {
    Json object = {{"apiVersion", "resource.k8s.io/v1"},
                   {"kind", "ResourceSlice"},
                   {"metadata", {{"name", names[i]}, {"ownerReferences", owner_references}}},
                   {"spec", SliceSpec(owner, chunks[i], generation, chunks.size())}};
    auto held = current.find(names[i]);
    SliceWrite write{
        .kind = held == current.end() ? SliceWrite::Kind::kCreate : SliceWrite::Kind::kUpdate,
        .name = names[i],
        .device_count = chunks[i].size(),
        .generation = generation};
    if (held != current.end()) {
      object["metadata"]["resourceVersion"] = MetadataField(held->second, "resourceVersion");
      // Labels and annotations someone else put on the slice are theirs to keep.
      for (const char* kept : {"labels", "annotations"}) {
        if (const Json* value = JsonAt(held->second, {"metadata", kept}))
          object["metadata"][kept] = *value;
      }
    }
    write.object = std::move(object);
    (write.kind == SliceWrite::Kind::kCreate ? creates : writes).push_back(std::move(write));
  }
  writes.insert(writes.end(), creates.begin(), creates.end());
  return writes;
}

std::vector<std::string> SliceDifferences(const Json& sent, const Json& stored) {
  std::vector<std::string> out;
  const Json* sent_spec = JsonAt(sent, {"spec"});
  const Json* stored_spec = JsonAt(stored, {"spec"});
  Differences(sent_spec ? *sent_spec : Json(), stored_spec ? *stored_spec : Json(), "spec", out);
  return out;
}

}  // namespace mc::dra
