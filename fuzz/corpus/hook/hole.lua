gr.on_node({"Relu", nil, "Data"}, function(n) end)
