-- bench/hooks/every_node.lua: a trivial site policy that visits every node
-- (the per-node cost of entering Lua, for bench/run).
local visited = 0
gr.on_node(function(node)
  visited = visited + 1
end)
