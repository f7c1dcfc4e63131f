package.path = package.path .. ";" .. debug.getinfo(1).source:match("@?(.*/)") .. "?.lua"
local c = require("common")
local partitions = tonumber(os.getenv("BENCH_PARTITIONS") or "1000")
local table_name = os.getenv("BENCH_TABLE") or "bench_coll10"
local stride = tonumber(os.getenv("BENCH_STRIDE") or "1")  -- collections queried: 0, stride, 2 * stride, ...
local filter = os.getenv("BENCH_FILTER")  -- when set: a FilterExpression keeping about half
local post = c.poster("Query")
request = function()
  c.seed()
  local body = '{"TableName":"' .. table_name .. '","KeyConditionExpression":"pk = :p",' ..
               '"ExpressionAttributeValues":{":p":{"S":"coll' .. math.random(0, partitions - 1) * stride .. '"}'
  if filter then
    body = body .. ',":h":{"N":"50"}},"FilterExpression":"score >= :h"}'
  else
    body = body .. '}}'
  end
  return post(body)
end
