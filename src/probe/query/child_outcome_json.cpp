#include "probe/query/child_outcome_json.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"

namespace mc::probe {
namespace {

using nlohmann::json;

struct KindName {
  ChildOutcome::Kind kind;
  const char* name;
};
constexpr KindName kKindNames[] = {{ChildOutcome::Kind::kExited, "exited"},
                                   {ChildOutcome::Kind::kSignalled, "signalled"},
                                   {ChildOutcome::Kind::kTimedOut, "timedOut"},
                                   {ChildOutcome::Kind::kNotStarted, "notStarted"}};

}  // namespace

std::string OutcomesToJson(const std::vector<ChildOutcome>& outcomes) {
  json list = json::array();
  for (const ChildOutcome& outcome : outcomes) {
    const char* kind = "exited";
    for (const KindName& k : kKindNames) {
      if (k.kind == outcome.kind) kind = k.name;
    }
    list.push_back(
        {{"kind", kind}, {"code", outcome.code}, {"out", outcome.out}, {"err", outcome.err}});
  }
  // What drivers print is not always UTF-8. Replacing what is not keeps the document whole.
  return JsonText(list) + "\n";
}

Result<std::vector<ChildOutcome>> ParseOutcomes(std::string_view text) {
  const json document = ParseJsonOrDiscarded(text);
  if (document.is_discarded()) return InvalidInput("the batch's outcomes are not JSON");
  JsonReader reader;
  auto fail = [&]() -> Result<std::vector<ChildOutcome>> { return reader.error(); };
  if (!reader.Array(document, "outcomes")) return fail();
  std::vector<ChildOutcome> outcomes;
  for (std::size_t i = 0; i < document.size(); ++i) {
    const std::string path = JsonReader::Element("outcomes", i);
    const json& item = document[i];
    if (!reader.Object(item, path)) return fail();
    ChildOutcome outcome;
    std::string kind;
    std::int64_t code = 0;
    const json* k = reader.Member(item, path, "kind");
    if (!k || !reader.String(*k, JsonReader::Child(path, "kind"), kind)) return fail();
    bool known = false;
    for (const KindName& name : kKindNames) {
      if (kind == name.name) {
        outcome.kind = name.kind;
        known = true;
      }
    }
    if (!known) {
      reader.Fail(JsonReader::Child(path, "kind"), "unknown kind \"" + kind + "\"");
      return fail();
    }
    const json* c = reader.Member(item, path, "code");
    if (!c || !reader.Int(*c, JsonReader::Child(path, "code"), std::numeric_limits<int>::min(),
                          std::numeric_limits<int>::max(), code)) {
      return fail();
    }
    outcome.code = static_cast<int>(code);
    const json* out = reader.Member(item, path, "out");
    if (!out || !reader.String(*out, JsonReader::Child(path, "out"), outcome.out)) return fail();
    const json* err = reader.Member(item, path, "err");
    if (!err || !reader.String(*err, JsonReader::Child(path, "err"), outcome.err)) return fail();
    outcomes.push_back(std::move(outcome));
  }
  return outcomes;
}

}  // namespace mc::probe
