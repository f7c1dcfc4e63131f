package.path = package.path .. ";" .. debug.getinfo(1).source:match("@?(.*/)") .. "?.lua"
local c = require("common")
local table_name = os.getenv("BENCH_TABLE") or "bench_gsi"
local post = c.poster("PutItem")
request = function()
  c.seed()
  local k = math.random(0, 100000)
  local body = '{"TableName":"' .. table_name .. '","Item":{"pk":{"S":"u' .. k .. '"},' ..
               '"g1":{"S":"org' .. (k % 100) .. '"},"g2":{"S":"status' .. (k % 7) .. '"},' ..
               '"g3":{"N":"' .. math.random(0, 1000000) .. '"},"name":{"S":"user ' .. k .. '"}}}'
  return post(body)
end
