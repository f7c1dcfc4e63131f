// The web console's files as embedded into the executable at build time (cmake/embed_console.cmake
// generates the table from the Vite build of web/; without Node.js and npm the table is empty).
//
// Contract: every asset is stored gzip-compressed (gzip -9 -n); `size` is its uncompressed length,
// `etag` a strong validator of its content (MD5 of the uncompressed bytes, quoted), `path` is
// relative to /console/ ("index.html", "assets/index-3f2a1c.js").
#pragma once

#include <cstddef>
#include <string_view>

namespace monotable::console {

struct Asset {
  std::string_view path;
  std::string_view gzip;
  size_t size;
  std::string_view etag;
};

// Defined by the generated console_assets.cc.
extern const Asset kAssets[];
extern const size_t kAssetCount;

}  // namespace monotable::console
