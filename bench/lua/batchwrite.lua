package.path = package.path .. ";" .. debug.getinfo(1).source:match("@?(.*/)") .. "?.lua"
local c = require("common")
local table_name = os.getenv("BENCH_TABLE") or "bench_bulk"
local post = c.poster("BatchWriteItem")
local payload = c.pad(160)
local thread_id = 0
local counter = 0
setup = function(thread)
  thread:set("thread_id", thread_id)
  thread_id = thread_id + 1
end
request = function()
  local parts = {}
  for i = 1, 25 do
    counter = counter + 1
    parts[i] = '{"PutRequest":{"Item":{"pk":{"S":"bulk' .. thread_id .. '_' .. counter ..
               '"},"payload":{"S":"' .. payload .. '"}}}}'
  end
  local body = '{"RequestItems":{"' .. table_name .. '":[' .. table.concat(parts, ",") .. ']}}'
  return post(body)
end
