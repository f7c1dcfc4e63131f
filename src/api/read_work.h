// ReadWork: what a Query or Scan read for its page, the server's measure of a request's size.
//
// Contract: items counts every item read (those the filter dropped included), bytes their sizes
// (with what an LSI read fetched from the table). Set by the read operations (api/read_request.h),
// carried on the HTTP response (api/service.h) to the query placement (api/query_placement.h);
// zero for every other request and for errors. Unlike a time, it does not grow while the thread
// waits for a CPU.
#pragma once

#include <cstdint>

namespace monotable::api {

struct ReadWork {
  uint64_t items = 0;
  uint64_t bytes = 0;
};

}  // namespace monotable::api
