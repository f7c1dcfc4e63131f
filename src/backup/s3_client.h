// A small S3 client for exports and imports against an S3-compatible endpoint (radosgw, MinIO, AWS):
// HTTP/1.1 over Boost.Beast, plain http only (no TLS), path-style addressing
// (http://endpoint/bucket/key), every request signed with AWS Signature Version 4
// (common/aws_sigv4.h) with x-amz-content-sha256 set to the payload's SHA-256.
//
// Contract:
// - Create() accepts "http://host[:port][/]" (port 80 by default) and refuses other schemes.
// - HeadBucket, PutObject, GetObject (streamed to a sink in chunks, never held whole) and
//   ListObjectsV2 (prefix, continuation token, max-keys) return OK on a 2xx answer; otherwise a
//   Status mapped from S3's error (its XML <Code>, or the status of a bodiless answer):
//   NoSuchBucket/404 on a bucket -> kResourceNotFound; AccessDenied, InvalidAccessKeyId,
//   SignatureDoesNotMatch/403 -> kAccessDenied; anything else (and network errors) -> kIo. The
//   message is AWS's "The specified bucket does not exist" for a missing bucket, else S3's own (AWS's
//   wording when S3 gave none).
// - One connection per request; a socket stalled for 60 s fails the request. Not thread-safe
//   (each object is used by one thread at a time); S3ObjectStore adapts it to object_store.h.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "backup/object_store.h"
#include "common/aws_sigv4.h"
#include "common/status.h"

namespace monotable::backup {

struct S3Config {
  std::string endpoint;  // http://host[:port]
  std::string access_key, secret_key;
  std::string region = "us-east-1";
};

class S3Client {
 public:
  static Result<S3Client> Create(S3Config config);

  Status HeadBucket(const std::string& bucket);
  Status PutObject(const std::string& bucket, const std::string& key, std::string_view data);
  Status GetObject(const std::string& bucket, const std::string& key,
                   const std::function<Status(std::string_view)>& sink);
  struct ListResult {
    std::vector<std::string> keys;
    std::string next_token;  // empty: no more
  };
  Result<ListResult> ListObjectsV2(const std::string& bucket, const std::string& prefix,
                                   const std::string& continuation_token, int max_keys);

  // Exposed for tests: the request path of an object ("/bucket/key", the key URI-encoded but for '/').
  static std::string ObjectPath(const std::string& bucket, const std::string& key);
  // Exposed for tests: parses a ListObjectsV2 answer; S3's <Error> documents into a Status.
  static Result<ListResult> ParseListing(std::string_view xml);
  static Status ErrorFrom(int http_status, std::string_view xml, bool bucket_request);

 private:
  S3Client(S3Config config, std::string host, std::string port)
      : config_(std::move(config)), host_(std::move(host)), port_(std::move(port)) {}
  // Sends one request; a 2xx answer's body goes to `sink` (or is dropped without one).
  Status Send(std::string_view method, const std::string& path,
              const std::vector<std::pair<std::string, std::string>>& query, std::string_view body,
              const std::function<Status(std::string_view)>* sink, bool bucket_request);

  S3Config config_;
  std::string host_, port_;
};

std::unique_ptr<ObjectStore> NewS3Store(S3Client client);

// The store the command line names: the directory `export_dir`, or the S3 endpoint of `s3` (keys
// from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY when not given), or none when neither is set; both
// set, or a bad endpoint, is an error.
Result<std::shared_ptr<ObjectStore>> OpenObjectStore(const std::string& export_dir, S3Config s3);

}  // namespace monotable::backup
