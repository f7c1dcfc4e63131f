// The one place where a Status becomes a DynamoDB wire error: HTTP status, __type and message.
#pragma once

#include <functional>
#include <string>

#include "common/status.h"
#include "api/wire_value.h"

namespace monotable::api {

struct WireError {
  int http_status = 400;
  std::string body;
};

// `details` writes extra members into the error object (e.g. "Item", "CancellationReasons").
WireError ToWireError(const Status& status, const std::function<void(JsonWriter&)>& details = nullptr);

}  // namespace monotable::api
