// Text for the pages: what came from outside shows as text, and every page is whole.
#include "common/base/html_text.h"

#include <gtest/gtest.h>

#include "support/markup_balance.h"

namespace mc {
namespace {

TEST(HtmlEscape, ShowsScriptAndMarkupAsText) {
  EXPECT_EQ(HtmlEscape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(HtmlEscape("<img src=x onerror=\"alert(1)\">"),
            "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
}

TEST(HtmlEscape, EscapesWhatCouldEndAnAttribute) {
  EXPECT_EQ(HtmlEscape("a\"b'c`d&e"), "a&quot;b&#39;c&#96;d&amp;e");
}

TEST(HtmlEscape, ReplacesBrokenUtf8AndDropsControlCharacters) {
  EXPECT_EQ(HtmlEscape(std::string("gpu\xff") + "\x01\x7f\tok\n"), "gpu\xEF\xBF\xBD\tok\n");
  EXPECT_EQ(HtmlEscape("Caf\xC3\xA9 \xE2\x9C\x93"), "Caf\xC3\xA9 \xE2\x9C\x93");
}

TEST(HtmlPage, CarriesThePolicyTheViewportAndAnEscapedTitle) {
  const std::string page = HtmlPage({.title = "<b>pool</b>", .refresh_s = 0}, "<p>hi</p>\n");
  EXPECT_NE(page.find(kPagePolicy), std::string::npos);
  EXPECT_NE(page.find("name=\"viewport\""), std::string::npos);
  EXPECT_NE(page.find("<title>&lt;b&gt;pool&lt;/b&gt;</title>"), std::string::npos);
  EXPECT_EQ(page.find("http-equiv=\"refresh\""), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

TEST(HtmlPage, RefreshesItselfOnlyWhenAsked) {
  const std::string page = HtmlPage({.title = "pool", .refresh_s = 15}, "");
  EXPECT_NE(page.find("<meta http-equiv=\"refresh\" content=\"15\">"), std::string::npos);
}

TEST(HtmlPage, FetchesNothingFromAnotherHost) {
  const std::string page = HtmlPage({.title = "pool", .refresh_s = 15}, "");
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
}

}  // namespace
}  // namespace mc
