-- softmax_high_precision.lua: "every Softmax runs high_precision".
--
-- Softmax-class operators lose accuracy in high_performance mode (GE's default
-- OP_SELECT_IMPL_MODE gives SoftmaxV2 and LogSoftmaxV2 high_performance). This
-- policy sets precision_mode = high_precision on every op whose type contains
-- "Softmax": Softmax, SoftmaxV2, LogSoftmaxV2, SoftmaxGrad, SoftmaxFocalLoss,
-- SoftmaxCrossEntropyWithLogits, ScaledMaskedSoftmax... The type_pattern filter
-- is decided once per op type, so other nodes cost nothing.
--
-- A node that already gets high_precision from the rules keeps its decision
-- (and its provenance); the others are overridden, and the report shows source
-- "hook" with this file's line and the mode the cascade had chosen.

gr.on_node({type_pattern = "Softmax"}, function(node)
  if node:decision("precision_mode") ~= "high_precision" then
    node:override("precision_mode", "high_precision",
                  "site policy: every Softmax-class op runs high_precision")
  end
end)
