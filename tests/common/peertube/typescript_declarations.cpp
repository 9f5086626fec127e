#include "common/peertube/typescript_declarations.h"

#include <cctype>
#include <regex>

namespace mc::peertube::testing {
namespace {

std::string Collapsed(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string Trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

// The text of a declaration's right-hand side: from after "PREFIX NAME =" to its ';'.
std::optional<std::string> TypeAlias(const std::string& text, const std::string& name) {
  const std::regex head("\\ntype " + name + " = ");
  std::smatch match;
  if (!std::regex_search(text, match, head)) return std::nullopt;
  const std::size_t start = static_cast<std::size_t>(match.position(0) + match.length(0));
  const std::size_t end = text.find(';', start);
  if (end == std::string::npos) return std::nullopt;
  return text.substr(start, end - start);
}

// The balanced {...} body that starts at or after `from`, without its braces.
std::optional<std::string> BraceBody(const std::string& text, std::size_t from) {
  const std::size_t open = text.find('{', from);
  if (open == std::string::npos) return std::nullopt;
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) return text.substr(open + 1, i - open - 1);
  }
  return std::nullopt;
}

std::vector<std::string> SplitTopLevel(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  int depth = 0;
  for (char c : text) {
    if (c == '{' || c == '<' || c == '(' || c == '[') ++depth;
    if (c == '}' || c == '>' || c == ')' || c == ']') --depth;
    if (c == separator && depth == 0) {
      parts.push_back(Trimmed(part));
      part.clear();
    } else {
      part += c;
    }
  }
  if (!Trimmed(part).empty()) parts.push_back(Trimmed(part));
  return parts;
}

}  // namespace

std::vector<std::string> TypeScriptDeclarations::StringUnion(const std::string& name) const {
  std::vector<std::string> values;
  for (const std::string& part : TypeUnion(name)) {
    if (part.size() >= 2 && part.front() == '\'' && part.back() == '\'')
      values.push_back(part.substr(1, part.size() - 2));
  }
  return values;
}

std::vector<std::string> TypeScriptDeclarations::TypeUnion(const std::string& name) const {
  const std::optional<std::string> alias = TypeAlias(text_, name);
  if (!alias) return {};
  return SplitTopLevel(*alias, '|');
}

std::map<std::string, int> TypeScriptDeclarations::ConstNumbers(const std::string& name) const {
  std::map<std::string, int> values;
  const std::size_t at = text_.find("\ndeclare const " + name + ": {");
  if (at == std::string::npos) return values;
  const std::optional<std::string> body = BraceBody(text_, at);
  if (!body) return values;
  const std::regex entry("readonly ([A-Z_]+): (-?[0-9]+);");
  for (auto it = std::sregex_iterator(body->begin(), body->end(), entry);
       it != std::sregex_iterator(); ++it)
    values[(*it)[1]] = std::stoi((*it)[2]);
  return values;
}

std::optional<std::map<std::string, Member>> TypeScriptDeclarations::Interface(
    const std::string& name) const {
  const std::regex head("\\ninterface " + name + "(<[^{]*?>)?( extends ([A-Za-z]+)[^{]*)? \\{");
  std::smatch match;
  if (!std::regex_search(text_, match, head)) return std::nullopt;
  const std::optional<std::string> body =
      BraceBody(text_, static_cast<std::size_t>(match.position(0) + match.length(0) - 1));
  if (!body) return std::nullopt;
  std::map<std::string, Member> members = Members(*body);
  if (match[3].matched) {
    const std::optional<std::map<std::string, Member>> base = Interface(match[3]);
    if (base) members.insert(base->begin(), base->end());
  }
  return members;
}

std::map<std::string, Member> TypeScriptDeclarations::Members(const std::string& body) {
  std::map<std::string, Member> members;
  for (const std::string& line : SplitTopLevel(body, ';')) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = Trimmed(line.substr(0, colon));
    Member member{Collapsed(line.substr(colon + 1)), false};
    if (!key.empty() && key.back() == '?') {
      member.optional = true;
      key.pop_back();
    }
    members[key] = member;
  }
  return members;
}

}  // namespace mc::peertube::testing
