// A reader of the few shapes of TypeScript declarations that PeerTube's published models
// (@peertube/peertube-types, one index.d.ts) use for the runner API: string unions, const
// objects of numbers, and interfaces. It serves the contract tests, which check our readers
// and writers against upstream's own description of the API.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mc::peertube::testing {

struct Member {
  std::string type;  // the TypeScript type as written, spaces collapsed
  bool optional = false;
};

class TypeScriptDeclarations {
 public:
  explicit TypeScriptDeclarations(std::string text) : text_(std::move(text)) {}

  // StringUnion reads `type NAME = 'a' | 'b';` as {"a", "b"}; empty when there is none.
  std::vector<std::string> StringUnion(const std::string& name) const;
  // TypeUnion reads `type NAME = A | B;` as {"A", "B"}.
  std::vector<std::string> TypeUnion(const std::string& name) const;
  // ConstNumbers reads `declare const NAME: { readonly KEY: 1; ... };`.
  std::map<std::string, int> ConstNumbers(const std::string& name) const;
  // Interface reads `interface NAME<...> extends BASE<...> { ... }`: its members and its
  // base's, or nothing when there is no such interface.
  std::optional<std::map<std::string, Member>> Interface(const std::string& name) const;

  // Members reads the members of an object type's body as written between its braces.
  static std::map<std::string, Member> Members(const std::string& body);

 private:
  std::string text_;
};

}  // namespace mc::peertube::testing
