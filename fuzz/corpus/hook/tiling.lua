gr.tiling("MatMulV2", function(node, chip)
  return {block_dim = 1, tile_shape = {1, 128}, tiles = {{offset = {0, 0}, size = {1, 128}, core = 0}}, ub_bytes = 1024}
end)
gr.tiling("SoftmaxV2", function(node, chip)
  return setmetatable({}, {__index = function() error("no") end})
end)
gr.tiling("Conv2D", function(node, chip) return {block_dim = 2^31, tile_shape = {1}, tiles = {}} end)
