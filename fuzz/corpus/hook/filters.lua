gr.on_node({"Conv2D", "MatMulV2", type = {"Cast"}}, function(n) n:override("precision_mode", "high_precision", "filtered") end)
gr.on_node({type_pattern = "^Softmax", name = "^s"}, function(n) gr.warning("FZ001", "softmax " .. n.name, n.name) end)
gr.on_node("Const", function(n) local a = n:attrs() end)
gr.on_node(function(n) local d = n:decisions(); local s = n:inputs(); local p = n:provenance("tiling"); local c = n:controls() end)
