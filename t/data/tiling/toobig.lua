-- toobig.lua: a wrong tiling: the whole [4096, 100] output as one tile.
gr.tiling("MyScale", function(node, chip)
  return { block_dim = 1, tile_shape = { 4096, 100 },
           tiles = { { offset = { 0, 0 }, size = { 4096, 100 }, core = 0 } },
           ub_bytes = 4096 * 100 * 2 * 2 * 2, buffers = 2, double_buffer = 1 }
end)
