#!/usr/bin/env python3
"""gen_onnx.py: ONNX models for bench/readers.sh, written straight in the protobuf wire
format (so that a 1 GB model needs no 1 GB in Python):

  --ops N -o FILE         a chain of N ops (MatMul, Add, Relu, Softmax in turn) over one
                          dynamic input, with a small initializer per MatMul
  --weights MB -o FILE    a small graph whose initializers hold MB megabytes of inline
                          raw_data (64 MiB tensors), for the peak-RSS figure

usage: gen_onnx.py (--ops N | --weights MB) -o FILE
"""
import struct
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def fld(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def fvar(num, v):
    return varint(num << 3) + varint(v)


def s(x):
    return x.encode()


def node(op, ins, outs, name):
    b = b"".join(fld(1, s(i)) for i in ins) + b"".join(fld(2, s(o)) for o in outs)
    return fld(1, b + fld(3, s(name)) + fld(4, s(op)))


def value_info(name, dims):
    dd = b"".join(fld(1, (fvar(1, d) if isinstance(d, int) else fld(2, s(d)))) for d in dims)
    tensor = fvar(1, 1) + fld(2, dd)
    return fld(1, s(name)) + fld(2, fld(1, tensor))


def tensor_head(name, dims, nbytes):
    """TensorProto up to raw_data's length prefix: dims, data_type FLOAT, name, raw_data tag."""
    b = b"".join(fvar(1, d) for d in dims) + fvar(2, 1) + fld(8, s(name))
    return b + varint(9 << 3 | 2) + varint(nbytes)


def model_bytes(graph_parts, graph_len, opset=17):
    head = fvar(1, 8) + fld(8, fvar(2, opset))
    return head + varint(7 << 3 | 2) + varint(graph_len)


def ops_model(n, out):
    kinds = ["MatMul", "Add", "Relu", "Softmax"]
    parts = [fld(11, value_info("x0", ["batch", 64]))]
    prev = "x0"
    for i in range(n):
        k = kinds[i % 4]
        o = "t%d" % i
        if k == "MatMul":
            w = "w%d" % i
            t = tensor_head(w, [64, 64], 64)
            parts.append(fld(5, t[:0]) if False else varint(5 << 3 | 2) + varint(len(t) + 64) + t + b"\0" * 64)
            parts.append(node(k, [prev, w], [o], "n%d" % i))
        elif k == "Add":
            parts.append(node(k, [prev, prev], [o], "n%d" % i))
        else:
            parts.append(node(k, [prev], [o], "n%d" % i))
        prev = o
    parts.append(fld(12, value_info(prev, ["batch", 64])))
    g = fld(2, b"bench") + b"".join(parts)
    with open(out, "wb") as f:
        f.write(model_bytes(None, len(g)) + g)


def weights_model(mb, out):
    chunk = 64 << 20
    ntensors = max(1, (mb << 20) // chunk)
    small = [fld(11, value_info("x", [1, 4096])), b""]
    nodes = b""
    prev = "x"
    heads = []
    for i in range(ntensors):
        w = "w%d" % i
        heads.append(tensor_head(w, [4096, 4096], chunk))
        nodes += node("MatMul", [prev, w], ["y%d" % i], "mm%d" % i)
        prev = "y%d" % i
    nodes += fld(12, value_info(prev, [1, 4096]))
    glen = len(fld(2, b"weights")) + len(small[0]) + len(nodes)
    for hd in heads:
        glen += len(varint(5 << 3 | 2)) + len(varint(len(hd) + chunk)) + len(hd) + chunk
    zeros = b"\0" * (1 << 20)
    with open(out, "wb") as f:
        f.write(model_bytes(None, glen))
        f.write(fld(2, b"weights") + small[0])
        for hd in heads:
            f.write(varint(5 << 3 | 2) + varint(len(hd) + chunk) + hd)
            for _ in range(chunk // len(zeros)):
                f.write(zeros)
        f.write(nodes)


def main(argv):
    out = argv[argv.index("-o") + 1]
    if "--ops" in argv:
        ops_model(int(argv[argv.index("--ops") + 1]), out)
    else:
        weights_model(int(argv[argv.index("--weights") + 1]), out)


if __name__ == "__main__":
    main(sys.argv)
