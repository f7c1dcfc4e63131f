#include "cli/aws_credentials.h"

#include <cstdlib>
#include <fstream>
#include <map>

namespace monotable::cli {
namespace {

using Section = std::map<std::string, std::string>;

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string Trim(std::string s) {
  size_t a = s.find_first_not_of(" \t\r");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// An INI file as the AWS CLI reads it: [section] headers, `key = value` lines, `#` and `;`
// comment lines. A missing file has no sections.
std::map<std::string, Section> ReadIni(const std::string& path) {
  std::map<std::string, Section> out;
  std::ifstream in(path);
  std::string line;
  Section* current = nullptr;
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      current = &out[Trim(line.substr(1, line.size() - 2))];
      continue;
    }
    size_t eq = line.find('=');
    if (!current || eq == std::string::npos) continue;
    (*current)[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  return out;
}

std::string HomeFile(const char* env, const char* name) {
  std::string path = Env(env);
  if (!path.empty()) return path;
  std::string home = Env("HOME");
  return home.empty() ? "" : home + "/.aws/" + name;
}

// The display form of a path (~ for the home directory).
std::string Shown(const std::string& path) {
  std::string home = Env("HOME");
  if (!home.empty() && path.rfind(home + "/", 0) == 0) return "~" + path.substr(home.size());
  return path;
}

const Section* ConfigSection(const std::map<std::string, Section>& config, const std::string& profile) {
  auto it = config.find("profile " + profile);
  if (it == config.end() && profile == "default") it = config.find("default");
  return it == config.end() ? nullptr : &it->second;
}

// A profile's key from one section; nullopt when the section holds none. Half a key is an error.
Result<std::optional<api::SigningKey>> KeyOf(const Section& s, const std::string& profile, const std::string& file) {
  auto get = [&](const char* k) {
    auto it = s.find(k);
    return it == s.end() ? std::string() : it->second;
  };
  api::SigningKey key{get("aws_access_key_id"), get("aws_secret_access_key"), get("aws_session_token")};
  if (key.access_key.empty() && key.secret.empty()) return std::optional<api::SigningKey>();
  if (key.access_key.empty() || key.secret.empty()) {
    return Status::Validation("profile " + profile + " in " + Shown(file) +
                              " has only one of aws_access_key_id and aws_secret_access_key");
  }
  return std::optional<api::SigningKey>(std::move(key));
}

}  // namespace

Result<AwsSettings> ResolveAwsSettings(const std::string& profile_option, const std::string& region_option) {
  AwsSettings out;
  const std::string credentials_path = HomeFile("AWS_SHARED_CREDENTIALS_FILE", "credentials");
  const std::string config_path = HomeFile("AWS_CONFIG_FILE", "config");
  const auto credentials = ReadIni(credentials_path);
  const auto config = ReadIni(config_path);

  std::string profile = profile_option;
  bool asked = !profile.empty();
  if (!asked) {
    profile = Env("AWS_PROFILE");
    if (profile.empty()) profile = Env("AWS_DEFAULT_PROFILE");
    asked = !profile.empty();
  }
  if (profile.empty()) profile = "default";
  const Section* config_section = ConfigSection(config, profile);
  auto in_credentials = credentials.find(profile);
  if (asked && !config_section && in_credentials == credentials.end()) {
    return Status::Validation("The config profile (" + profile + ") could not be found");
  }

  // The key: the environment's unless a profile was named on the command line.
  std::string env_key = Env("AWS_ACCESS_KEY_ID");
  std::string env_secret = Env("AWS_SECRET_ACCESS_KEY");
  if (profile_option.empty() && !env_key.empty() && !env_secret.empty()) {
    out.key = api::SigningKey{env_key, env_secret, Env("AWS_SESSION_TOKEN")};
    out.source = "environment";
  }
  if (!out.key && in_credentials != credentials.end()) {
    auto key = KeyOf(in_credentials->second, profile, credentials_path);
    if (!key.ok()) return key.status();
    if (*key) {
      out.key = std::move(*key);
      out.source = "profile " + profile + " in " + Shown(credentials_path);
    }
  }
  if (!out.key && config_section) {
    auto key = KeyOf(*config_section, profile, config_path);
    if (!key.ok()) return key.status();
    if (*key) {
      out.key = std::move(*key);
      out.source = "profile " + profile + " in " + Shown(config_path);
    }
  }

  // The region.
  std::string region = region_option;
  if (region.empty()) region = Env("AWS_REGION");
  if (region.empty()) region = Env("AWS_DEFAULT_REGION");
  if (region.empty() && config_section) {
    auto it = config_section->find("region");
    if (it != config_section->end()) region = it->second;
  }
  if (!region.empty()) out.region = region;
  out.ca_bundle = Env("AWS_CA_BUNDLE");
  if (out.ca_bundle.empty() && config_section) {
    auto it = config_section->find("ca_bundle");
    if (it != config_section->end()) out.ca_bundle = it->second;
  }
  return out;
}

}  // namespace monotable::cli
