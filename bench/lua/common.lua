-- Shared by every workload script: DynamoDB request framing for wrk.
-- Each script builds its requests with poster(operation); dynalite insists on an Authorization
-- header (it does not verify it), monotable ignores it when authentication is off.
local M = {}

M.headers = function(operation)
  return {
    ["Content-Type"] = "application/x-amz-json-1.0",
    ["X-Amz-Target"] = "DynamoDB_20120810." .. operation,
    ["X-Amz-Date"] = "20240101T000000Z",
    ["Authorization"] = "AWS4-HMAC-SHA256 Credential=AKIDBENCH/20240101/us-east-1/dynamodb/aws4_request, " ..
                        "SignedHeaders=host;x-amz-date;x-amz-target, Signature=0000",
  }
end

M.pad = function(n) return string.rep("x", n) end

-- Distinct keys per wrk thread: wrk gives each thread its own Lua state.
M.thread_counter = 0
M.seeded = false
M.seed = function()
  if not M.seeded then
    math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 100000)
    M.seeded = true
  end
end

-- A request builder for one operation: the request line and headers (as wrk.format writes them)
-- are built once per wrk thread; wrk.format builds them again for every request, a table and a
-- string.format a header, and on a 2-core machine the load generator's CPU is the server's too.
M.poster = function(operation)
  local head
  return function(body)
    if not head then
      head = wrk.format("POST", "/", M.headers(operation), ""):gsub("\r\nContent%-Length: 0", "")
      head = head:sub(1, -5) .. "\r\nContent-Length: "  -- without the blank line that ends the headers
    end
    return head .. #body .. "\r\n\r\n" .. body
  end
end

return M
