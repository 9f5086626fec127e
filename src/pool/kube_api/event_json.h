// The Event the manager records on its StatefulSet (a core/v1 Event, which `kubectl describe`
// lists under the object), and the StatefulSet's UID it must name. Pure functions.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "pool/kube/kubernetes_pool.h"

namespace mc::pool {

struct PoolEvent {
  EventType type = EventType::kNormal;
  std::string reason;   // UpperCamelCase, such as ScaledUp
  std::string message;  // one sentence for people
};

// The StatefulSet an Event is about, and who records it.
struct EventSource {
  std::string ns;
  std::string statefulset;
  std::string uid;        // the StatefulSet's metadata.uid; describe matches Events on it
  std::string component;  // source.component and reportingComponent
  std::string instance;   // reportingInstance; may be empty
};

// EventName is client-go's form, OBJECT.HEX-NANOSECONDS, unique for one recorder.
std::string EventName(const std::string& object, std::chrono::system_clock::time_point at);

// EventBody is the Event to POST to /api/v1/namespaces/NS/events. The message is made valid
// UTF-8 and cut to 1024 bytes, the most the events API keeps.
std::string EventBody(const EventSource& source, const PoolEvent& event,
                      std::chrono::system_clock::time_point at);

// ParseObjectUid reads metadata.uid from an object the API server answered with.
Result<std::string> ParseObjectUid(std::string_view body);

}  // namespace mc::pool
