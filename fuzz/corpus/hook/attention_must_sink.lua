-- attention_must_sink.lua: "fail the build if an attention op on A3 does not
-- sink its tiling".
--
-- On the Atlas A3 series, FusedInferAttentionScore and IncreFlashAttention are
-- expected to compute their tiling on the device (tiling sink, enabled with
-- TILING_SCHEDULE_OPTIMIZE=1 for static shapes when the value-dependent inputs
-- are produced on the device). Any such node whose tiling slot is not "device"
-- is an error that names the reason the rules gave.
--
-- The chip is read once, when the options are resolved; on other chips the
-- node callback returns at once.

local on_a3 = false

gr.on_begin(function()
  on_a3 = gr.chip().product == "a3"
end)

gr.on_node({"FusedInferAttentionScore", "IncreFlashAttention"}, function(node)
  if not on_a3 then return end
  local tiling, source = node:decision("tiling")
  if tiling ~= "device" then
    local why = ""
    local prov = node:provenance("tiling")
    if prov[1] and prov[1].reason then why = ": " .. prov[1].reason end
    node:error("SITE003", string.format(
      "attention op '%s' (%s) on %s must sink its tiling to the device, but its tiling is %s (%s)%s",
      node.name, node.type, gr.chip().soc, tostring(tiling), tostring(source), why))
  end
end)
