// The one place where a Status becomes a DynamoDB wire error: HTTP status, __type and message.
#pragma once

#include <optional>
#include <string>

#include "common/status.h"
#include "model/attribute_value.h"

namespace monotable::api {

struct WireError {
  int http_status = 400;
  std::string body;
};

WireError ToWireError(const Status& status, const std::optional<Item>& item = std::nullopt);

}  // namespace monotable::api
