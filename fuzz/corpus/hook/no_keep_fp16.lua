-- no_keep_fp16.lua: "no keep_fp16 in production".
--
-- keep_fp16 keeps FP16 inside an operator without promotion to FP32; it trades
-- accuracy for speed and GE does not recommend it. This site policy turns any
-- node whose effective precision_mode is keep_fp16 (from an op_precision.ini
-- [ByNodeName] or [ByOpType] entry, or from an earlier hook) into an error, so
-- `gerules eval` exits 1 and the build stops.
--
-- The mode can come from any op type, so the callback has no type filter and
-- visits every node; it only reads one decision (well under a microsecond).
--
--   gerules eval model.json --chip Ascend910B1 \
--       -o ge.exec.op_precision_mode=op_precision.ini --hook no_keep_fp16.lua

gr.on_node(function(node)
  local mode, source = node:decision("precision_mode")
  if mode == "keep_fp16" then
    node:error("SITE001", string.format(
      "node '%s' (%s) runs keep_fp16 (set by %s): keep_fp16 is not allowed in production builds",
      node.name, node.type, source))
  end
end)
