-- broken.lua: a tiling function that fails at run time.
gr.tiling("MyScale", function(node, chip)
  local t = nil
  return t.block_dim
end)
