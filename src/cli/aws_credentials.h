// Where `monotable model apply|seed|verify|diff --endpoint` finds the key it signs with, and the
// region, the way the AWS CLI finds them (the parts of its chain that need no network):
//
// - key: with --profile NAME, that profile only (environment keys are ignored, as by the AWS CLI);
//   otherwise AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY (+ AWS_SESSION_TOKEN), else the profile
//   AWS_PROFILE names (or "default"). A profile's keys (aws_access_key_id, aws_secret_access_key,
//   aws_session_token) are read from the shared credentials file (AWS_SHARED_CREDENTIALS_FILE or
//   ~/.aws/credentials, section [NAME]), else from the config file (AWS_CONFIG_FILE or
//   ~/.aws/config, section [profile NAME], or [default]).
// - region: --region, else AWS_REGION, AWS_DEFAULT_REGION, the profile's `region` in the config
//   file, else us-east-1.
// - CA bundle for https:// endpoints: AWS_CA_BUNDLE, else the profile's `ca_bundle` in the config
//   file, else the system's CAs.
// Contract: a profile named by --profile or AWS_PROFILE that neither file has is an error ("The
// config profile (NAME) could not be found", the AWS CLI's words), as is a profile with only half
// a key. No key anywhere (and no profile asked for) is not an error: requests then go unsigned
// (monotable without --credentials and DynamoDB Local accept them). credential_process, SSO,
// web identity and instance roles are not supported.
#pragma once

#include <optional>
#include <string>

#include "api/sigv4.h"
#include "common/status.h"

namespace monotable::cli {

struct AwsSettings {
  std::optional<api::SigningKey> key;  // nullopt: unsigned requests
  std::string region = "us-east-1";
  std::string source;     // where the key came from ("environment", "profile dev in ~/.aws/credentials")
  std::string ca_bundle;  // PEM file of CAs for https:// ("": the system's)
};

// profile, region: the --profile and --region options ("" when not given).
Result<AwsSettings> ResolveAwsSettings(const std::string& profile, const std::string& region);

}  // namespace monotable::cli
