// A small check that markup is well formed enough for a browser and an SVG reader alike:
// every element that is opened is closed, in order, and no tag is cut short. HTML's void
// elements (meta, link, br) and self-closed ones (<line/>) need no closing tag; comments and
// the doctype are skipped. It is no parser: it is what the pages' tests need to fail on a
// tag left open or closed twice.
#pragma once

#include <cctype>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace mc::test {

// UnbalancedTag returns what is wrong, or nothing when every tag balances.
inline std::optional<std::string> UnbalancedTag(std::string_view markup) {
  static const std::set<std::string> kVoid = {"meta", "link", "br", "hr", "img", "input"};
  std::vector<std::string> open;
  std::size_t at = 0;
  while ((at = markup.find('<', at)) != std::string_view::npos) {
    if (markup.substr(at, 4) == "<!--") {
      const std::size_t end = markup.find("-->", at);
      if (end == std::string_view::npos) return "a comment is never closed";
      at = end + 3;
      continue;
    }
    const std::size_t end = markup.find('>', at);
    if (end == std::string_view::npos) return "a tag is cut short at " + std::to_string(at);
    std::string_view tag = markup.substr(at + 1, end - at - 1);
    at = end + 1;
    if (!tag.empty() && tag[0] == '!') continue;  // the doctype
    if (tag.find('<') != std::string_view::npos) return "a '<' inside a tag: " + std::string(tag);
    const bool closing = !tag.empty() && tag[0] == '/';
    const bool self_closed = !tag.empty() && tag.back() == '/';
    if (closing) tag.remove_prefix(1);
    std::size_t name_end = 0;
    while (name_end < tag.size() &&
           (std::isalnum(static_cast<unsigned char>(tag[name_end])) || tag[name_end] == '-'))
      ++name_end;
    const std::string name(tag.substr(0, name_end));
    if (name.empty()) return "a tag without a name: <" + std::string(tag) + ">";
    if (closing) {
      if (open.empty() || open.back() != name)
        return "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">");
      open.pop_back();
    } else if (!self_closed && !kVoid.count(name)) {
      open.push_back(name);
    }
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return std::nullopt;
}

}  // namespace mc::test
