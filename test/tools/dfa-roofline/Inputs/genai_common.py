"""What onnxruntime-genai's model builder puts before GroupQueryAttention
in every model: seqlens_k (each sequence's last position) and
total_sequence_length, both from the attention mask [batch,
total_sequence_length]. Shared by window_gqa.py and genai_gqa.py."""
from onnx import TensorProto as T, helper as h

MASK = h.make_tensor_value_info("attention_mask", T.INT64, ["batch_size", "total_sequence_length"])
ONE = h.make_tensor("one", T.INT64, [1], [1])
SEQLENS = [h.make_node("ReduceSum", ["attention_mask", "one"], ["len"], keepdims=0),
           h.make_node("Sub", ["len", "one"], ["last"]),
           h.make_node("Cast", ["last"], ["seqlens_k"], to=T.INT32),
           h.make_node("Shape", ["attention_mask"], ["shape"]),
           h.make_node("Gather", ["shape", "one"], ["tot64"], axis=0),
           h.make_node("Cast", ["tot64"], ["tot"], to=T.INT32)]
