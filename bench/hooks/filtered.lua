-- bench/hooks/filtered.lua: a policy filtered by op type; nodes of other types
-- must cost nothing (bench/run compares it with running no hook).
gr.on_node("IncreFlashAttention", function(node)
  if node:decision("tiling") ~= "device" then
    node:note("BENCH1", "tiling of " .. node.name .. " is not sunk")
  end
end)
