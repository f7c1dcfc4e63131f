package.path = package.path .. ";" .. debug.getinfo(1).source:match("@?(.*/)") .. "?.lua"
local c = require("common")
local items = tonumber(os.getenv("BENCH_ITEMS") or "10000")
local table_name = os.getenv("BENCH_TABLE") or "bench_items"
local post = c.poster("GetItem")
request = function()
  c.seed()
  local body = '{"TableName":"' .. table_name .. '","Key":{"pk":{"S":"item' .. math.random(0, items - 1) .. '"}}}'
  return post(body)
end
