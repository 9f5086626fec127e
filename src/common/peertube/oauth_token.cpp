#include "common/peertube/oauth_token.h"

#include "common/base/text.h"
#include "common/peertube/admin_json.h"

namespace mc::peertube {
namespace {

using Json = nlohmann::json;

bool NonEmptyString(JsonReader& reader, const Json& object, const char* name, std::string& out) {
  const Json* member = reader.Member(object, "", name);
  if (!member || !reader.String(*member, name, out)) return false;
  return !out.empty() || reader.Fail(name, "empty");
}

// Seconds as PeerTube states them: an integer. A number with a fraction is taken too.
bool Lifetime(JsonReader& reader, const Json& value, const char* name, double& out) {
  if (!value.is_number()) return reader.Fail(name, "expected a number of seconds");
  out = value.get<double>();
  // No server sets a token lifetime of ten years. Past it lies a mistake.
  if (!(out > 0 && out <= 10.0 * 365 * 86400)) return reader.Fail(name, "value is out of range");
  return true;
}

}  // namespace

Result<OAuthClient> ParseOAuthClient(std::string_view json) {
  Result<Json> document = ParseAnswer(json, "the OAuth client");
  if (!document) return document.error();
  JsonReader reader;
  OAuthClient client;
  if (reader.Object(*document, "(answer)") &&
      NonEmptyString(reader, *document, "client_id", client.client_id))
    NonEmptyString(reader, *document, "client_secret", client.client_secret);
  if (!reader.error_message().empty())
    return InvalidInput("the OAuth client: " + reader.error_message());
  return client;
}

Result<OAuthToken> ParseOAuthToken(std::string_view json) {
  Result<Json> document = ParseAnswer(json, "the OAuth token");
  if (!document) return document.error();
  JsonReader reader;
  OAuthToken token;
  [&] {
    if (!reader.Object(*document, "(answer)")) return;
    if (const Json* type = JsonReader::OptionalMember(*document, "token_type")) {
      std::string text;
      if (!reader.String(*type, "token_type", text)) return;
      // RFC 6749 says the type is case-insensitive.
      if (AsciiLower(text) != "bearer") {
        reader.Fail("token_type", "not Bearer");
        return;
      }
    }
    if (!NonEmptyString(reader, *document, "access_token", token.access_token)) return;
    if (!NonEmptyString(reader, *document, "refresh_token", token.refresh_token)) return;
    const Json* expires = reader.Member(*document, "", "expires_in");
    if (!expires || !Lifetime(reader, *expires, "expires_in", token.expires_in_s)) return;
    if (const Json* refresh = JsonReader::OptionalMember(*document, "refresh_token_expires_in"))
      Lifetime(reader, *refresh, "refresh_token_expires_in", token.refresh_token_expires_in_s);
  }();
  if (!reader.error_message().empty())
    return InvalidInput("the OAuth token: " + reader.error_message());
  return token;
}

}  // namespace mc::peertube
