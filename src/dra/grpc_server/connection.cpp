#include "dra/grpc_server/connection.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "dra/grpc_server/message_frame.h"
#include "dra/grpc_server/request_head.h"

namespace mc::dra {
namespace {

// How many calls a client may have open on one connection at once.
// The kubelet has one health stream and a few prepares.
// gRPC's servers announce 100 as well.
constexpr std::uint32_t kMaxConcurrentStreams = 100;

nghttp2_nv Field(std::string_view name, std::string_view value) {
  // nghttp2 copies the names and values it is given.
  // So these may point at temporaries that outlive only the submit call.
  return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
          value.size(), NGHTTP2_NV_FLAG_NONE};
}

}  // namespace

struct Connection::Session {
  struct Stream {
    std::vector<Header> headers;
    std::size_t header_bytes = 0;
    std::string path;
    std::string body;
    // Handed to the owner or answered here; later DATA is not kept.
    bool started = false;
    bool answered_here = false;
    bool response_begun = false;
    // Framed messages that nghttp2 has not yet taken.
    std::string pending;
    std::optional<GrpcStatus> status;
  };

  ConnectionCallbacks callbacks;
  nghttp2_session* session = nullptr;
  std::map<StreamId, Stream> streams;

  ~Session() { nghttp2_session_del(session); }

  Stream* Find(StreamId id) {
    auto found = streams.find(id);
    return found == streams.end() ? nullptr : &found->second;
  }

  // A refused request is answered here.
  // Its later headers and data are dropped.
  void Refuse(StreamId id, Stream& stream, GrpcStatus status) {
    stream.answered_here = true;
    Finish(id, status);
  }

  // HeadersDone checks a request's headers once they are all in.
  void HeadersDone(StreamId id, Stream& stream) {
    if (stream.header_bytes > kMaxRequestHeaderBytes) {
      return Refuse(
          id, stream,
          {StatusCode::kResourceExhausted, "the request's headers are larger than " +
                                               std::to_string(kMaxRequestHeaderBytes) + " bytes"});
    }
    Result<RequestHead> head = ParseRequestHead(stream.headers);
    stream.headers.clear();
    if (!head) return Refuse(id, stream, StatusFromError(head.error()));
    if (!callbacks.serves(head->path)) {
      return Refuse(id, stream,
                    {StatusCode::kUnimplemented, "no method " + head->path + " is served here"});
    }
    stream.path = std::move(head->path);
  }

  // RequestDone runs when the client has ended its side of the stream.
  void RequestDone(StreamId id, Stream& stream) {
    if (stream.answered_here || stream.started) return;
    Result<std::string_view> message = ParseSingleMessage(stream.body);
    if (!message) return Refuse(id, stream, StatusFromError(message.error()));
    stream.started = true;
    CallStart call{id, stream.path, std::string(*message)};
    stream.body.clear();
    callbacks.start(std::move(call));
  }

  void BeginResponse(StreamId id, Stream& stream, bool with_data) {
    stream.response_begun = true;
    std::vector<nghttp2_nv> fields = {Field(":status", "200"),
                                      Field("content-type", "application/grpc")};
    if (with_data) {
      nghttp2_data_provider provider{};
      provider.read_callback = &ReadPending;
      nghttp2_submit_response(session, id, fields.data(), fields.size(), &provider);
      return;
    }
    // Trailers-Only: a call with no message sends its status in one HEADERS.
    const std::string code = std::to_string(static_cast<int>(stream.status->code));
    const std::string message = PercentEncodeStatusMessage(stream.status->message);
    fields.push_back(Field("grpc-status", code));
    if (!message.empty()) fields.push_back(Field("grpc-message", message));
    nghttp2_submit_response(session, id, fields.data(), fields.size(), nullptr);
  }

  void Send(StreamId id, std::string_view message) {
    Stream* stream = Find(id);
    if (!stream || stream->status) return;
    stream->pending += FrameMessage(message);
    if (!stream->response_begun) return BeginResponse(id, *stream, true);
    nghttp2_session_resume_data(session, id);
  }

  void Finish(StreamId id, const GrpcStatus& status) {
    Stream* stream = Find(id);
    if (!stream || stream->status) return;
    stream->status = status;
    if (!stream->response_begun) return BeginResponse(id, *stream, false);
    nghttp2_session_resume_data(session, id);
  }

  // nghttp2's callbacks, each given the session as its user data.
  static int OnBeginHeaders(nghttp2_session*, const nghttp2_frame* frame, void* self) {
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
      static_cast<Session*>(self)->streams[frame->hd.stream_id];
    return 0;
  }

  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                      std::size_t name_length, const std::uint8_t* value, std::size_t value_length,
                      std::uint8_t, void* self) {
    Stream* stream = static_cast<Session*>(self)->Find(frame->hd.stream_id);
    // Trailers from the client carry nothing this server reads.
    if (!stream || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    stream->header_bytes += name_length + value_length;
    if (stream->header_bytes > kMaxRequestHeaderBytes) return 0;
    stream->headers.emplace_back(std::string(reinterpret_cast<const char*>(name), name_length),
                                 std::string(reinterpret_cast<const char*>(value), value_length));
    return 0;
  }

  static int OnDataChunk(nghttp2_session*, std::uint8_t, StreamId id, const std::uint8_t* data,
                         std::size_t length, void* self) {
    auto* session = static_cast<Session*>(self);
    Stream* stream = session->Find(id);
    if (!stream || stream->answered_here || stream->started) return 0;
    stream->body.append(reinterpret_cast<const char*>(data), length);
    if (BodyTooLarge(stream->body.size())) {
      stream->body.clear();
      session->Refuse(
          id, *stream,
          {StatusCode::kResourceExhausted, "the request's message is larger than " +
                                               std::to_string(kMaxRequestMessage) + " bytes"});
    }
    return 0;
  }

  static int OnFrame(nghttp2_session*, const nghttp2_frame* frame, void* self) {
    auto* session = static_cast<Session*>(self);
    if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
    Stream* stream = session->Find(frame->hd.stream_id);
    if (!stream) return 0;
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
      session->HeadersDone(frame->hd.stream_id, *stream);
    if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)
      session->RequestDone(frame->hd.stream_id, *stream);
    return 0;
  }

  static int OnStreamClose(nghttp2_session*, StreamId id, std::uint32_t, void* self) {
    auto* session = static_cast<Session*>(self);
    auto found = session->streams.find(id);
    if (found == session->streams.end()) return 0;
    const bool started = found->second.started;
    session->streams.erase(found);
    if (started) session->callbacks.closed(id);
    return 0;
  }

  // ReadPending gives nghttp2 the stream's framed messages as DATA.
  // Once all are out and the call has its status, it ends the data.
  // Then it sends the status as trailers.
  static ssize_t ReadPending(nghttp2_session* nghttp2, StreamId id, std::uint8_t* buffer,
                             std::size_t length, std::uint32_t* flags, nghttp2_data_source*,
                             void* self) {
    Stream* stream = static_cast<Session*>(self)->Find(id);
    if (!stream) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    const std::size_t taken = std::min(length, stream->pending.size());
    std::memcpy(buffer, stream->pending.data(), taken);
    stream->pending.erase(0, taken);
    if (!stream->pending.empty()) return static_cast<ssize_t>(taken);
    if (!stream->status)
      return taken > 0 ? static_cast<ssize_t>(taken) : ssize_t{NGHTTP2_ERR_DEFERRED};
    *flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
    const std::string code = std::to_string(static_cast<int>(stream->status->code));
    const std::string message = PercentEncodeStatusMessage(stream->status->message);
    std::vector<nghttp2_nv> trailers = {Field("grpc-status", code)};
    if (!message.empty()) trailers.push_back(Field("grpc-message", message));
    nghttp2_submit_trailer(nghttp2, id, trailers.data(), trailers.size());
    return static_cast<ssize_t>(taken);
  }
};

Result<std::unique_ptr<Connection>> Connection::Create(ConnectionCallbacks callbacks) {
  auto session = std::make_unique<Session>();
  session->callbacks = std::move(callbacks);
  nghttp2_session_callbacks* table = nullptr;
  if (nghttp2_session_callbacks_new(&table) != 0) return Internal("nghttp2: out of memory");
  nghttp2_session_callbacks_set_on_begin_headers_callback(table, &Session::OnBeginHeaders);
  nghttp2_session_callbacks_set_on_header_callback(table, &Session::OnHeader);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(table, &Session::OnDataChunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(table, &Session::OnFrame);
  nghttp2_session_callbacks_set_on_stream_close_callback(table, &Session::OnStreamClose);
  const int created = nghttp2_session_server_new(&session->session, table, session.get());
  nghttp2_session_callbacks_del(table);
  if (created != 0) return Internal(std::string("nghttp2: ") + nghttp2_strerror(created));
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, kMaxConcurrentStreams}};
  nghttp2_submit_settings(session->session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  return std::unique_ptr<Connection>(new Connection(std::move(session)));
}

Connection::Connection(std::unique_ptr<Session> session) : session_(std::move(session)) {}

Connection::~Connection() = default;

Result<void> Connection::Receive(std::string_view bytes) {
  const ssize_t read = nghttp2_session_mem_recv(
      session_->session, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  if (read < 0) {
    return InvalidInput(std::string("the peer broke HTTP/2: ") +
                        nghttp2_strerror(static_cast<int>(read)));
  }
  return Ok();
}

std::string Connection::TakeOutput() {
  std::string output;
  for (;;) {
    const std::uint8_t* data = nullptr;
    const ssize_t length = nghttp2_session_mem_send(session_->session, &data);
    if (length <= 0) break;
    output.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(length));
  }
  return output;
}

void Connection::Send(StreamId stream, std::string_view message) {
  session_->Send(stream, message);
}

void Connection::Finish(StreamId stream, const GrpcStatus& status) {
  session_->Finish(stream, status);
}

void Connection::GoAway() {
  nghttp2_submit_goaway(session_->session, NGHTTP2_FLAG_NONE,
                        nghttp2_session_get_last_proc_stream_id(session_->session),
                        NGHTTP2_NO_ERROR, nullptr, 0);
}

bool Connection::Alive() const {
  return nghttp2_session_want_read(session_->session) ||
         nghttp2_session_want_write(session_->session);
}

}  // namespace mc::dra
