package.path = package.path .. ";" .. debug.getinfo(1).source:match("@?(.*/)") .. "?.lua"
local c = require("common")
local table_name = os.getenv("BENCH_TABLE") or "bench_bulk"
local post = c.poster("BatchWriteItem")
local payload = c.pad(160)
-- Keys distinct across wrk's threads: setup (in wrk's main Lua state) gives each thread's state
-- its number as the global bulk_thread; each state counts its own requests.
local next_thread = 0
local counter = 0
setup = function(thread)
  thread:set("bulk_thread", next_thread)
  next_thread = next_thread + 1
end
request = function()
  local parts = {}
  for i = 1, 25 do
    counter = counter + 1
    parts[i] = '{"PutRequest":{"Item":{"pk":{"S":"bulk' .. bulk_thread .. '_' .. counter ..
               '"},"payload":{"S":"' .. payload .. '"}}}}'
  end
  local body = '{"RequestItems":{"' .. table_name .. '":[' .. table.concat(parts, ",") .. ']}}'
  return post(body)
end
