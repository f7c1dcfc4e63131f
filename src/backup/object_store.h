// Where exports are written and imports read: an S3 bucket's objects, behind one small interface
// with two implementations — a local directory standing in for S3 (`serve --export-dir DIR`: bucket
// B is the directory DIR/B, an object key a path below it) and an S3-compatible endpoint
// (`serve --s3-endpoint URL`, s3_client.h).
//
// Contract:
// - CheckBucket(): OK when objects can be written to the bucket (the directory store creates a
//   bucket directory on the first Put, so it always says OK; S3 asks HeadBucket).
// - Put(): stores the whole object (creating the directories a key names, for the directory store).
// - Get(): streams the object's bytes to `sink` in chunks (at most 64 KiB each), never the whole
//   object at once; a non-OK status from `sink` stops the transfer and is returned.
// - List(): keys beginning with `prefix`, in key order (S3's byte order), at most `max_keys` per
//   page; `next_token` is empty on the last page, else it is given back to continue. The directory
//   store lists regular files and named pipes.
// - Failures carry kResourceNotFound for a missing bucket ("The specified bucket does not exist"),
//   kAccessDenied for refused credentials (S3's AccessDenied, InvalidAccessKeyId,
//   SignatureDoesNotMatch), kIo for the rest; the message is S3's (or the file system's).
// - Implementations are safe to use from one thread at a time.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace monotable::backup {

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  struct Page {
    std::vector<std::string> keys;
    std::string next_token;  // empty: the last page
  };
  using Sink = std::function<Status(std::string_view chunk)>;

  virtual Status CheckBucket(const std::string& bucket) = 0;
  virtual Status Put(const std::string& bucket, const std::string& key, std::string_view data) = 0;
  virtual Status Get(const std::string& bucket, const std::string& key, const Sink& sink) = 0;
  virtual Result<Page> List(const std::string& bucket, const std::string& prefix, const std::string& token,
                            int max_keys = 1000) = 0;

  // Every key under `prefix`, all pages.
  Result<std::vector<std::string>> ListAll(const std::string& bucket, const std::string& prefix);
};

Status NoSuchBucket();

// The directory store: `root` holds one directory per bucket.
std::unique_ptr<ObjectStore> NewDirectoryStore(std::string root);

}  // namespace monotable::backup
