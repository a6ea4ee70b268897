-- moe_like_matmul.lua: "our custom op MyFusedMoe behaves like MatMul".
--
-- GE's rules know nothing about MyFusedMoe, so no source of the cascade gives
-- it a precision mode. This policy gives every MyFusedMoe node the precision
-- mode a MatMulV2 gets under the same chip and options:
--
--   1. If the graph has a MatMulV2 node whose mode came from the ordinary
--      cascade (not from its own [ByNodeName] entry and not from a hook), copy
--      that decision: it is exactly what the rules give a MatMulV2 here,
--      ALLOW_HF32, [ByOpType], OP_SELECT_IMPL_MODE and defaults included.
--   2. Otherwise compute it the way the rules do for MatMul-class ops: an
--      [ByOpType] MatMulV2 entry of the OP_PRECISION_MODE file, else, on chips
--      with HF32, the rule table hf32_matmul_mode at the value of ALLOW_HF32
--      (explicit, or its default "10").
--
-- A MyFusedMoe node named in [ByNodeName], or whose type has its own
-- [ByOpType] entry, keeps that explicit setting. The copy happens in the end
-- stage, when every node is decided (a MatMulV2 may come later in the file).

local moe = {}

gr.on_node("MyFusedMoe", function(node)
  moe[#moe + 1] = node
end)

local function matmul_mode()
  for _, mm in ipairs(gr.nodes("MatMulV2")) do
    local mode, source = mm:decision("precision_mode")
    if source ~= "by_node_name" and source ~= "hook" then
      return mode, string.format("behaves like MatMulV2: same mode as node '%s' (%s)", mm.name, tostring(source))
    end
  end
  local ok, entry = pcall(gr.ini, "OP_PRECISION_MODE", "ByOpType", "MatMulV2")
  if ok and entry then
    return entry, "behaves like MatMulV2: [ByOpType] MatMulV2 of OP_PRECISION_MODE"
  end
  if gr.chip().caps.hf32 then
    local allow = gr.option("ALLOW_HF32")
    local mode = allow and gr.table("hf32_matmul_mode")[allow]
    if mode then
      return mode, string.format("behaves like MatMulV2: ALLOW_HF32=%s maps MatMul-class ops to %s", allow, mode)
    end
  end
  return nil
end

gr.on_end(function()
  if #moe == 0 then return end
  local mode, why = matmul_mode()
  if mode == nil then return end        -- a MatMulV2 would get no mode either
  for _, node in ipairs(moe) do
    local _, source = node:decision("precision_mode")
    if source ~= "by_node_name" and source ~= "by_op_type" then
      node:override("precision_mode", mode, why)
    end
  end
end)
