// Text for the pages a person reads in a browser: the pool manager's and the worker's.
// Every string that came from outside (a worker's or a runner's name, a video's, a reason)
// goes through HtmlEscape, so markup and script in it show as text.
// The pages are whole documents from HtmlPage: one style sheet inline, no script, nothing
// fetched from anywhere, and a Content-Security-Policy that forbids every other origin.
#pragma once

#include <string>
#include <string_view>

namespace mc {

// HtmlEscape makes text safe in an element's content and in a quoted attribute value.
// It escapes & < > " ' and the backquote, replaces ill-formed UTF-8 with U+FFFD, and drops
// control characters other than tab and newline.
std::string HtmlEscape(std::string_view text);

// The policy the pages carry in a <meta> element: no script at all, only the page's own
// inline style, images only as data: URLs, no form, no base. Nothing leaves the page's host.
inline constexpr const char* kPagePolicy =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'";
// The same policy as the servers send it in a header, where it may also forbid framing.
inline constexpr const char* kPagePolicyHeader =
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'";

struct PageHead {
  std::string title;  // plain text; it is escaped
  int refresh_s = 0;  // the page reloads itself after this many seconds; 0: never
};

// HtmlPage wraps `body` (markup, already escaped where it must be) into a whole document:
// the policy, the viewport for a phone, the shared style sheet and the refresh.
std::string HtmlPage(const PageHead& head, std::string_view body);

}  // namespace mc
