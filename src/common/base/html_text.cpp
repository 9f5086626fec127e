#include "common/base/html_text.h"

#include "common/base/utf8.h"

namespace mc {

namespace {

// One style sheet for both pages: readable on a phone (tables scroll sideways, charts scale),
// with light and dark schemes, no font fetched.
constexpr const char* kStyle = R"css(
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fafafa;--mute:#666;--line:#ccc;
--ok:#1a7f37;--bad:#c62828;--warn:#9a6700;--a:#1f6feb;--b:#8250df;--c:#bf3989;--d:#2da44e}
@media(prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#161616;--mute:#999;--line:#444}}
body{font:15px/1.4 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0;
padding:0.8em;max-width:70em}
h1{font-size:1.3em;margin:0.2em 0}h2{font-size:1.1em;margin:1.2em 0 0.4em}
.mute{color:var(--mute)}.ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:0.92em}
th,td{text-align:left;padding:0.25em 0.6em;border-bottom:1px solid var(--line);vertical-align:top}
td.n,th.n{text-align:right}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(20em,1fr));gap:0.8em}
figure{margin:0}figcaption{font-weight:600;margin-bottom:0.2em}
svg{width:100%;height:auto;display:block}
svg text{font:11px system-ui,sans-serif;fill:var(--mute)}
svg .axis{stroke:var(--line);stroke-width:1}
svg .target{stroke:var(--bad);stroke-width:1.2;stroke-dasharray:5 4}
svg polyline{fill:none;stroke-width:1.8}
.s0{stroke:var(--a)}.s1{stroke:var(--b)}.s2{stroke:var(--c)}.s3{stroke:var(--d)}
.k0{color:var(--a)}.k1{color:var(--b)}.k2{color:var(--c)}.k3{color:var(--d)}
)css";

bool IsDroppedControl(unsigned char c) { return (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f; }

}  // namespace

std::string HtmlEscape(std::string_view text) {
  const std::string valid = ValidUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      case '`':
        out += "&#96;";
        break;
      default:
        if (!IsDroppedControl(static_cast<unsigned char>(c))) out += c;
    }
  }
  return out;
}

std::string HtmlPage(const PageHead& head, std::string_view body) {
  std::string page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta http-equiv=\"Content-Security-Policy\" content=\"";
  page += kPagePolicy;
  page += "\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  if (head.refresh_s > 0)
    page += "<meta http-equiv=\"refresh\" content=\"" + std::to_string(head.refresh_s) + "\">\n";
  // No favicon is fetched: the page names an empty one of its own.
  page += "<link rel=\"icon\" href=\"data:,\">\n<title>" + HtmlEscape(head.title) + "</title>\n";
  page += "<style>";
  page += kStyle;
  page += "</style>\n</head>\n<body>\n";
  page += body;
  page += "</body>\n</html>\n";
  return page;
}

}  // namespace mc
