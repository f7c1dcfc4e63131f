// The web console's file server (src/console): routing, content types, cache headers, gzip
// negotiation and validators, over the files this build embedded (or none, without npm).
#include "console/console.h"

#include <gtest/gtest.h>
#include <libdeflate.h>

#include <string>

#include "console/assets.h"

namespace monotable::console {
namespace {

std::string Header(const Response& r, std::string_view name) {
  for (const auto& [k, v] : r.headers) {
    if (k == name) return v;
  }
  return "";
}

TEST(ConsoleTest, PathsUnderConsoleOnly) {
  EXPECT_TRUE(IsConsolePath("/console"));
  EXPECT_TRUE(IsConsolePath("/console/"));
  EXPECT_TRUE(IsConsolePath("/console/assets/x.js"));
  EXPECT_TRUE(IsConsolePath("/console?x=1"));
  EXPECT_FALSE(IsConsolePath("/consoles"));
  EXPECT_FALSE(IsConsolePath("/"));
  EXPECT_FALSE(IsConsolePath("/health"));
}

TEST(ConsoleTest, BareConsoleRedirectsToTheFolder) {
  Response r = Serve({"GET", "/console", "", ""});
  EXPECT_EQ(r.status, 301);
  EXPECT_EQ(Header(r, "Location"), "/console/");
  r = Serve({"GET", "/console?table=t", "", ""});
  EXPECT_EQ(Header(r, "Location"), "/console/?table=t");
}

TEST(ConsoleTest, OtherMethodsAreRefused) {
  Response r = Serve({"POST", "/console/", "", ""});
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(Header(r, "Allow"), "GET");
}

TEST(ConsoleTest, ContentTypes) {
  EXPECT_EQ(ContentType("index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentType("assets/a-1.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentType("assets/a-1.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentType("favicon.svg"), "image/svg+xml");
  EXPECT_EQ(ContentType("x.png"), "image/png");
  EXPECT_EQ(ContentType("noext"), "application/octet-stream");
}

TEST(ConsoleTest, AcceptEncodingGzip) {
  EXPECT_TRUE(AcceptsGzip("gzip, deflate, br"));
  EXPECT_TRUE(AcceptsGzip("br;q=1.0, GZIP;q=0.5"));
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_FALSE(AcceptsGzip(""));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("gzip; q=0.000, br"));
  EXPECT_FALSE(AcceptsGzip("x-gzip"));
}

TEST(ConsoleTest, AbsentConsoleSaysSo) {
  if (Present()) GTEST_SKIP() << "this build embeds the console";
  Response r = Serve({"GET", "/console/", "gzip", ""});
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("absent"), std::string::npos);
}

TEST(ConsoleTest, PageAndAssetsWithTheirCacheHeaders) {
  if (!Present()) GTEST_SKIP() << "built without npm: no console files";
  Response page = Serve({"GET", "/console/", "", ""});
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(Header(page, "Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(Header(page, "Cache-Control"), "no-cache");
  EXPECT_EQ(Header(page, "Content-Encoding"), "");
  EXPECT_NE(page.body.find("<div id=\"app\">"), std::string::npos);
  EXPECT_NE(Header(page, "Content-Security-Policy").find("connect-src 'self'"), std::string::npos);
  // The same bytes as /console/index.html, and as a client-side route.
  EXPECT_EQ(Serve({"GET", "/console/index.html", "", ""}).body, page.body);
  EXPECT_EQ(Serve({"GET", "/console/tables/orders", "", ""}).body, page.body);

  bool saw_script = false;
  for (size_t i = 0; i < kAssetCount; ++i) {
    const Asset& a = kAssets[i];
    if (a.path.substr(0, 7) != "assets/") continue;
    Response r = Serve({"GET", "/console/" + std::string(a.path), "", ""});
    ASSERT_EQ(r.status, 200) << a.path;
    EXPECT_EQ(r.body.size(), a.size);
    EXPECT_EQ(Header(r, "Cache-Control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(Header(r, "Content-Type"), ContentType(a.path));
    if (a.path.size() > 3 && a.path.substr(a.path.size() - 3) == ".js") saw_script = true;
  }
  EXPECT_TRUE(saw_script);
}

TEST(ConsoleTest, GzipWhenAcceptedAndTheSameBytesInflated) {
  if (!Present()) GTEST_SKIP() << "built without npm: no console files";
  Response plain = Serve({"GET", "/console/", "", ""});
  Response gz = Serve({"GET", "/console/", "gzip, deflate", ""});
  ASSERT_EQ(gz.status, 200);
  EXPECT_EQ(Header(gz, "Content-Encoding"), "gzip");
  EXPECT_EQ(Header(gz, "Vary"), "Accept-Encoding");
  std::string out(plain.body.size(), '\0');
  size_t n = 0;
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  ASSERT_EQ(libdeflate_gzip_decompress(d, gz.body.data(), gz.body.size(), out.data(), out.size(), &n),
            LIBDEFLATE_SUCCESS);
  libdeflate_free_decompressor(d);
  EXPECT_EQ(out, plain.body);
  EXPECT_NE(Header(gz, "ETag"), Header(plain, "ETag"));  // one validator per encoding
}

TEST(ConsoleTest, IfNoneMatchAnswersNotModified) {
  if (!Present()) GTEST_SKIP() << "built without npm: no console files";
  Response first = Serve({"GET", "/console/", "gzip", ""});
  std::string etag = Header(first, "ETag");
  ASSERT_FALSE(etag.empty());
  Response again = Serve({"GET", "/console/", "gzip", "\"other\", " + etag});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(Serve({"GET", "/console/", "", etag}).status, 200);  // the other encoding's tag
  EXPECT_EQ(Serve({"GET", "/console/", "gzip", "\"stale\""}).status, 200);
}

TEST(ConsoleTest, MissingFilesAre404) {
  if (!Present()) GTEST_SKIP() << "built without npm: no console files";
  EXPECT_EQ(Serve({"GET", "/console/assets/nope-123.js", "", ""}).status, 404);
  EXPECT_EQ(Serve({"GET", "/console/favicon.ico", "", ""}).status, 404);
}

}  // namespace
}  // namespace monotable::console
