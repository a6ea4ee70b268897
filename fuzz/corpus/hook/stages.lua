gr.on_begin(function()
  for _, o in ipairs(gr.options()) do if o.name == "ALLOW_HF32" then gr.note("FZ002", "hf32 " .. tostring(o.value)) end end
end)
gr.on_end(function()
  for _, d in ipairs(gr.diagnostics()) do if d.severity == "error" then gr.set_severity(d.index, "warning", "fuzz") end end
  local n = gr.node("fia"); if n then n:override("tiling", "host", "end stage") end
  gr.error("FZ003", string.format("%d nodes", #gr.nodes()))
end)
