-- overlap.lua: a wrong tiling: blocks of 16 rows that start every 15 rows.
gr.tiling("MyScale", function(node, chip)
  local tiles = {}
  for r = 0, 4096 - 16, 15 do
    tiles[#tiles + 1] = { offset = { r, 0 }, size = { 16, 100 }, core = #tiles % 8 }
  end
  tiles[#tiles + 1] = { offset = { 4080, 0 }, size = { 16, 100 }, core = #tiles % 8 }
  return { block_dim = 8, tile_shape = { 16, 100 }, tiles = tiles,
           ub_bytes = 16 * 100 * 2 * 2, buffers = 2, double_buffer = 0 }
end)
