-- tail.lua: a wrong tiling: blocks of 48 rows and no tail block, so the
-- last 4096 - 85 * 48 = 16 rows are never computed.
gr.tiling("MyScale", function(node, chip)
  local tiles = {}
  for i = 0, 4096 // 48 - 1 do
    tiles[#tiles + 1] = { offset = { 48 * i, 0 }, size = { 48, 100 }, core = i % 8 }
  end
  return { block_dim = 8, tile_shape = { 48, 100 }, tiles = tiles,
           ub_bytes = 48 * 100 * 2 * 2 * 2, buffers = 2, double_buffer = 1 }
end)
