package.path = package.path .. ";" .. debug.getinfo(1).source:match("@?(.*/)") .. "?.lua"
local c = require("common")
local size = tonumber(os.getenv("BENCH_ITEM_BYTES") or "200")
local table_name = os.getenv("BENCH_TABLE") or "bench_items"
local post = c.poster("PutItem")
local payload = c.pad(size - 40)
request = function()
  c.seed()
  local body = '{"TableName":"' .. table_name .. '","Item":{"pk":{"S":"put' .. math.random(0, 1000000) ..
               '"},"n":{"N":"' .. math.random(0, 1000000) .. '"},"payload":{"S":"' .. payload .. '"}}}'
  return post(body)
end
