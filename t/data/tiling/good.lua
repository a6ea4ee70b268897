-- good.lua: a correct tiling for the custom op MyScale ([R, C] fp16 output):
-- blocks of whole rows, as many as the chip's UB holds with 2 double-buffered
-- buffers (rows a multiple of 16), spread round robin over the vector cores.
gr.tiling("MyScale", function(node, chip)
  local R, C = 4096, 100
  local per_row = C * 2 * 2 * 2            -- fp16, 2 buffers, 2 copies
  local rows = (chip.hw.ub_bytes // per_row) // 16 * 16
  local cores = chip.hw.vector_cores
  local tiles, i = {}, 0
  for r = 0, R - 1, rows do
    local n = math.min(rows, R - r)
    tiles[#tiles + 1] = { offset = { r, 0 }, size = { n, C }, core = i % cores }
    i = i + 1
  end
  return { block_dim = math.min(cores, #tiles), tile_shape = { rows, C }, tiles = tiles,
           ub_bytes = rows * C * 2 * 2 * 2, buffers = 2, double_buffer = 1 }
end)
