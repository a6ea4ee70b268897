gr.on_node(function(n)
  local t = {}
  for i = 1, 1e5 do t[i] = string.rep("x", 100) .. i end
  table.sort(t, function(a, b) return a > b end)
end)
