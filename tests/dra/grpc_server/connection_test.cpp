// One connection as a client sees it: libnghttp2's own client side makes the requests and
// reads the answers, in memory, so every HTTP/2 frame is one a real client would send.
#include "dra/grpc_server/connection.h"

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include <cstring>
#include <list>
#include <map>

#include "dra/grpc_server/message_frame.h"
#include "dra/grpc_server/request_head.h"

namespace mc::dra {
namespace {

using namespace std::string_literals;

constexpr const char* kEcho = "/test.Echo/Say";

// What the client received on one stream.
struct Answer {
  std::map<std::string, std::string> headers;
  std::map<std::string, std::string> trailers;
  std::string data;
  bool closed = false;
  std::uint32_t reset_code = 0;
};

class Client {
 public:
  Client() {
    nghttp2_session_callbacks* table = nullptr;
    nghttp2_session_callbacks_new(&table);
    nghttp2_session_callbacks_set_on_header_callback(table, &OnHeader);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(table, &OnData);
    nghttp2_session_callbacks_set_on_stream_close_callback(table, &OnClose);
    nghttp2_session_client_new(&session_, table, this);
    nghttp2_session_callbacks_del(table);
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, nullptr, 0);
  }
  ~Client() { nghttp2_session_del(session_); }

  // Call opens a stream with gRPC's request headers, `headers` replacing or adding to them,
  // and sends `body` as its DATA.
  StreamId Call(const std::string& path, std::string body,
                std::map<std::string, std::string> headers = {}) {
    std::map<std::string, std::string> all = {{":method", "POST"},
                                              {":scheme", "http"},
                                              {":path", path},
                                              {":authority", "localhost"},
                                              {"content-type", "application/grpc"},
                                              {"te", "trailers"}};
    for (auto& [name, value] : headers) all[name] = value;
    std::vector<nghttp2_nv> fields;
    // Pseudo-headers must come first; std::map sorts ':' before letters.
    for (auto& [name, value] : all) {
      fields.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                        reinterpret_cast<std::uint8_t*>(value.data()), name.size(), value.size(),
                        NGHTTP2_NV_FLAG_NONE});
    }
    bodies_.push_back(std::move(body));
    nghttp2_data_provider provider{};
    provider.source.ptr = &bodies_.back();
    provider.read_callback = &ReadBody;
    return nghttp2_submit_request(session_, nullptr, fields.data(), fields.size(), &provider,
                                  nullptr);
  }

  void Reset(StreamId stream) {
    nghttp2_submit_rst_stream(session_, NGHTTP2_FLAG_NONE, stream, NGHTTP2_CANCEL);
  }

  std::string TakeOutput() {
    std::string output;
    const std::uint8_t* data = nullptr;
    for (ssize_t n; (n = nghttp2_session_mem_send(session_, &data)) > 0;)
      output.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
    return output;
  }
  void Receive(const std::string& bytes) {
    ASSERT_GE(nghttp2_session_mem_recv(
                  session_, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
              0);
  }

  std::map<StreamId, Answer> answers;

 private:
  static int OnHeader(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                      std::size_t name_length, const std::uint8_t* value, std::size_t value_length,
                      std::uint8_t, void* self) {
    Answer& answer = static_cast<Client*>(self)->answers[frame->hd.stream_id];
    auto& into = frame->headers.cat == NGHTTP2_HCAT_HEADERS ? answer.trailers : answer.headers;
    into[std::string(reinterpret_cast<const char*>(name), name_length)] =
        std::string(reinterpret_cast<const char*>(value), value_length);
    return 0;
  }
  static int OnData(nghttp2_session*, std::uint8_t, StreamId stream, const std::uint8_t* data,
                    std::size_t length, void* self) {
    static_cast<Client*>(self)->answers[stream].data.append(reinterpret_cast<const char*>(data),
                                                            length);
    return 0;
  }
  static int OnClose(nghttp2_session*, StreamId stream, std::uint32_t code, void* self) {
    Answer& answer = static_cast<Client*>(self)->answers[stream];
    answer.closed = true;
    answer.reset_code = code;
    return 0;
  }
  static ssize_t ReadBody(nghttp2_session*, StreamId, std::uint8_t* buffer, std::size_t length,
                          std::uint32_t* flags, nghttp2_data_source* source, void*) {
    auto* body = static_cast<std::string*>(source->ptr);
    const std::size_t taken = std::min(length, body->size());
    std::memcpy(buffer, body->data(), taken);
    body->erase(0, taken);
    if (body->empty()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(taken);
  }

  nghttp2_session* session_ = nullptr;
  std::list<std::string> bodies_;
};

// The fixture's connection serves kEcho and records the calls it starts and closes; the
// test answers them.
class ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto created = Connection::Create(
        {.serves = [](const std::string& path) { return path == kEcho; },
         .start = [this](CallStart call) { started_.push_back(std::move(call)); },
         .closed = [this](StreamId stream) { closed_.push_back(stream); }});
    ASSERT_TRUE(created.ok()) << created.error_message();
    connection_ = std::move(created).value();
  }

  // Pump carries bytes both ways until neither side has more to say.
  void Pump() {
    for (int round = 0; round < 100; ++round) {
      const std::string to_server = client_.TakeOutput();
      if (!to_server.empty()) {
        ASSERT_TRUE(connection_->Receive(to_server).ok());
      }
      const std::string to_client = connection_->TakeOutput();
      if (!to_client.empty()) client_.Receive(to_client);
      if (to_server.empty() && to_client.empty()) return;
    }
    FAIL() << "the connection kept talking";
  }

  Client client_;
  std::unique_ptr<Connection> connection_;
  std::vector<CallStart> started_;
  std::vector<StreamId> closed_;
};

TEST_F(ConnectionTest, AUnaryCallGetsItsRequestAndSendsHeadersOneMessageAndTrailers) {
  const StreamId stream = client_.Call(kEcho, FrameMessage("ping"));
  Pump();
  ASSERT_EQ(started_.size(), 1u);
  EXPECT_EQ(started_[0].stream, stream);
  EXPECT_EQ(started_[0].path, kEcho);
  EXPECT_EQ(started_[0].request, "ping");

  connection_->Send(stream, "pong");
  connection_->Finish(stream, {});
  Pump();
  const Answer& answer = client_.answers[stream];
  EXPECT_EQ(answer.headers.at(":status"), "200");
  EXPECT_EQ(answer.headers.at("content-type"), "application/grpc");
  EXPECT_EQ(answer.headers.count("grpc-status"), 0u);
  EXPECT_EQ(answer.data, FrameMessage("pong"));
  EXPECT_EQ(answer.trailers.at("grpc-status"), "0");
  EXPECT_TRUE(answer.closed);
  EXPECT_EQ(answer.reset_code, NGHTTP2_NO_ERROR);
  EXPECT_EQ(closed_, std::vector<StreamId>{stream});
}

TEST_F(ConnectionTest, AStreamSendsEachMessageAsItIsWrittenAndEndsWithTheStatus) {
  const StreamId stream = client_.Call(kEcho, FrameMessage(""));
  Pump();
  ASSERT_EQ(started_.size(), 1u);
  connection_->Send(stream, "one");
  Pump();
  EXPECT_EQ(client_.answers[stream].data, FrameMessage("one"));
  EXPECT_FALSE(client_.answers[stream].closed);
  connection_->Send(stream, "two");
  connection_->Finish(stream, {StatusCode::kUnavailable, "stopping"});
  connection_->Send(stream, "after the end");
  Pump();
  const Answer& answer = client_.answers[stream];
  EXPECT_EQ(answer.data, FrameMessage("one") + FrameMessage("two"));
  EXPECT_EQ(answer.trailers.at("grpc-status"), "14");
  EXPECT_EQ(answer.trailers.at("grpc-message"), "stopping");
  EXPECT_TRUE(answer.closed);
}

TEST_F(ConnectionTest, ACallThatEndsWithNoMessageSendsTrailersOnly) {
  const StreamId stream = client_.Call(kEcho, FrameMessage("x"));
  Pump();
  connection_->Finish(stream, {StatusCode::kInternal, "100% broken\n"});
  Pump();
  const Answer& answer = client_.answers[stream];
  EXPECT_EQ(answer.headers.at(":status"), "200");
  EXPECT_EQ(answer.headers.at("grpc-status"), "13");
  EXPECT_EQ(answer.headers.at("grpc-message"), "100%25 broken%0A");
  EXPECT_TRUE(answer.data.empty());
  EXPECT_TRUE(answer.closed);
}

TEST_F(ConnectionTest, AnUnknownMethodIsUnimplementedAndNeverStarts) {
  const StreamId stream = client_.Call("/test.Echo/Shout", FrameMessage("x"));
  Pump();
  EXPECT_TRUE(started_.empty());
  const Answer& answer = client_.answers[stream];
  EXPECT_EQ(answer.headers.at("grpc-status"), "12");
  EXPECT_NE(answer.headers.at("grpc-message").find("/test.Echo/Shout"), std::string::npos);
}

TEST_F(ConnectionTest, AWrongContentTypeIsRefusedNamingIt) {
  const StreamId stream =
      client_.Call(kEcho, FrameMessage("x"), {{"content-type", "application/json"}});
  Pump();
  EXPECT_TRUE(started_.empty());
  const Answer& answer = client_.answers[stream];
  EXPECT_EQ(answer.headers.at("grpc-status"), "13");
  EXPECT_NE(answer.headers.at("grpc-message").find("application/json"), std::string::npos);
}

TEST_F(ConnectionTest, AMalformedMessageIsRefusedAndNeverStarts) {
  const StreamId cut = client_.Call(kEcho, "\0\0\0\0\11abc"s);
  const StreamId compressed = client_.Call(kEcho, "\1\0\0\0\1x"s);
  const StreamId empty = client_.Call(kEcho, "");
  Pump();
  EXPECT_TRUE(started_.empty());
  EXPECT_EQ(client_.answers[cut].headers.at("grpc-status"), "13");
  EXPECT_NE(client_.answers[cut].headers.at("grpc-message").find("cut short"), std::string::npos);
  EXPECT_EQ(client_.answers[compressed].headers.at("grpc-status"), "12");
  EXPECT_EQ(client_.answers[empty].headers.at("grpc-status"), "13");
}

TEST_F(ConnectionTest, AMessageOverTheLimitIsRefusedBeforeItHasAllArrived) {
  const StreamId stream =
      client_.Call(kEcho, FrameMessage(std::string(kMaxRequestMessage + 1, 'x')));
  Pump();
  EXPECT_TRUE(started_.empty());
  EXPECT_EQ(client_.answers[stream].headers.at("grpc-status"), "8");
}

TEST_F(ConnectionTest, HeadersOverTheLimitAreRefused) {
  const StreamId stream = client_.Call(kEcho, FrameMessage("x"),
                                       {{"x-padding", std::string(kMaxRequestHeaderBytes, 'p')}});
  Pump();
  EXPECT_TRUE(started_.empty());
  EXPECT_EQ(client_.answers[stream].headers.at("grpc-status"), "8");
}

TEST_F(ConnectionTest, AClientThatCancelsClosesItsCall) {
  const StreamId stream = client_.Call(kEcho, FrameMessage("x"));
  Pump();
  ASSERT_EQ(started_.size(), 1u);
  client_.Reset(stream);
  Pump();
  EXPECT_EQ(closed_, std::vector<StreamId>{stream});
  // The call's late answer goes nowhere.
  connection_->Send(stream, "late");
  connection_->Finish(stream, {});
  Pump();
  EXPECT_TRUE(client_.answers[stream].data.empty());
}

TEST_F(ConnectionTest, ManyCallsOnOneConnectionAreAnsweredEachOnItsOwnStream) {
  std::vector<StreamId> streams;
  for (int i = 0; i < 5; ++i)
    streams.push_back(client_.Call(kEcho, FrameMessage(std::to_string(i))));
  Pump();
  ASSERT_EQ(started_.size(), 5u);
  for (const CallStart& call : started_) {
    connection_->Send(call.stream, "re:" + call.request);
    connection_->Finish(call.stream, {});
  }
  Pump();
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(client_.answers[streams[i]].data, FrameMessage("re:" + std::to_string(i)));
}

TEST_F(ConnectionTest, APeerThatIsNotHttp2IsToldSoAndTheConnectionEnds) {
  Result<void> received = connection_->Receive("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_FALSE(received.ok());
  EXPECT_NE(received.error_message().find("HTTP/2"), std::string::npos) << received.error_message();
}

TEST_F(ConnectionTest, GoAwayLetsTheOpenCallFinishAndThenTheConnectionEnds) {
  const StreamId stream = client_.Call(kEcho, FrameMessage("x"));
  Pump();
  connection_->GoAway();
  Pump();
  EXPECT_TRUE(connection_->Alive());
  connection_->Send(stream, "done");
  connection_->Finish(stream, {});
  Pump();
  EXPECT_EQ(client_.answers[stream].trailers.at("grpc-status"), "0");
  EXPECT_FALSE(connection_->Alive());
}

}  // namespace
}  // namespace mc::dra
