// Everything a peer sends on the kubelet plugin's sockets is outside input: HTTP/2 frames,
// their headers, their gRPC messages. The input follows the client's connection preface and
// goes to one connection; every call it starts is answered at once, as a method would. The
// connection must never crash, whatever the frames, and must keep answering with bytes or
// refuse the peer with an error that says why.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "dra/grpc_server/connection.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mc::dra;
  std::vector<CallStart> started;
  auto connection = Connection::Create(
      {.serves = [](const std::string& path) { return path == "/fuzz.Echo/Say"; },
       .start = [&started](CallStart call) { started.push_back(std::move(call)); },
       .closed = [](StreamId) {}});
  if (!connection) std::abort();
  const std::string input =
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + std::string(reinterpret_cast<const char*>(data), size);
  // The bytes arrive in two reads, as a socket may cut them anywhere.
  const std::size_t cut = input.size() / 2;
  for (const std::string& part : {input.substr(0, cut), input.substr(cut)}) {
    mc::Result<void> received = (*connection)->Receive(part);
    if (!received) {
      if (received.error_message().empty()) std::abort();
      (*connection)->TakeOutput();
      return 0;
    }
    for (const CallStart& call : started) {
      (*connection)->Send(call.stream, call.request);
      (*connection)->Finish(call.stream, {StatusCode::kInternal, call.path});
    }
    started.clear();
    (*connection)->TakeOutput();
  }
  return 0;
}
