#!/usr/bin/env python3
"""Converts a GE ModelDef given as ATC JSON (what `atc --mode=1` writes, and what
examples/gen_examples.py writes) into the other forms GE keeps the same model in,
so that gerules can be shown to read the same graph from each:

  --binary OUT     the serialized ge.proto.ModelDef (binary protobuf)
  --text OUT       the protobuf text format of it (a ge_proto_*.txt graph dump)
  --om OUT         an .om offline model: the 256-byte ModelFileHeader, a
                   partition table and the MODEL_DEF partition, with a dummy
                   WEIGHTS_DATA and TASK_INFO partition around it
      --legacy-table   use the 32-bit (legacy) partition table (model_length 0)
      --models N       write N models (root + N-1 copies as submodels, model_num N)

Field numbers are those of hicann/ge graph_metadef/proto/ge_ir.proto; the .om layout
is that of inc/framework/common/framework_types_internal.h and
base/common/helper/om_file_helper.cc (hicann/ge commit ffdcbc9f7). The wire format
is written by hand (a few lines) so that no protobuf package is needed.

usage: ge_convert.py MODEL.json [--binary OUT] [--text OUT] [--om OUT [--legacy-table] [--models N]]
"""
import json
import struct
import sys

DTYPES = ["DT_UNDEFINED", "DT_FLOAT", "DT_FLOAT16", "DT_INT8", "DT_UINT8", "DT_INT16", "DT_UINT16",
          "DT_INT32", "DT_INT64", "DT_UINT32", "DT_UINT64", "DT_BOOL", "DT_DOUBLE", "DT_STRING",
          "DT_DUAL_SUB_INT8", "DT_DUAL_SUB_UINT8", "DT_COMPLEX64", "DT_COMPLEX128", "DT_QINT8",
          "DT_QINT16", "DT_QINT32", "DT_QUINT8", "DT_QUINT16", "DT_RESOURCE", "DT_STRING_REF",
          "DT_DUAL", "DT_VARIANT", "DT_BF16", "DT_INT4", "DT_UINT1", "DT_INT2", "DT_UINT2",
          "DT_COMPLEX32", "DT_HIFLOAT8", "DT_FLOAT8_E5M2", "DT_FLOAT8_E4M3FN", "DT_FLOAT8_E8M0",
          "DT_FLOAT6_E3M2", "DT_FLOAT6_E2M3", "DT_FLOAT4_E2M1", "DT_FLOAT4_E1M2", "DT_HIFLOAT4"]
VALTYPES = ["VT_LIST_NONE", "VT_LIST_STRING", "VT_LIST_INT", "VT_LIST_FLOAT", "VT_LIST_BOOL",
            "VT_LIST_BYTES", "VT_LIST_TENSOR_DESC", "VT_LIST_TENSOR", "VT_LIST_GRAPH",
            "VT_LIST_NAMED_ATTRS", "VT_LIST_DATA_TYPE"]
# AttrDef members the readers do not decode: written as empty sub-messages
OTHER_ATTR = {"bt": 7, "func": 10, "td": 11, "t": 12, "g": 13, "list_list_int": 14,
              "list_list_float": 16, "expression": 17}


# ---- binary protobuf ----

def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(num, wt):
    return varint(num << 3 | wt)


def f_varint(num, v):
    return key(num, 0) + varint(v)


def f_bytes(num, b):
    if isinstance(b, str):
        b = b.encode()
    return key(num, 2) + varint(len(b)) + b


def f_float(num, v):
    return key(num, 5) + struct.pack("<f", v)


def packed_varints(num, vals):
    return f_bytes(num, b"".join(varint(v) for v in vals)) if vals else b""


def dtype_num(v):
    return v if isinstance(v, int) else DTYPES.index(v)


def to_float(v):
    return float(v)


def enc_list(lv):
    out = b""
    for s in lv.get("s") or []:
        out += f_bytes(2, s)
    out += packed_varints(3, lv.get("i") or [])
    if lv.get("f"):
        out += f_bytes(4, b"".join(struct.pack("<f", to_float(x)) for x in lv["f"]))
    out += packed_varints(5, [1 if x else 0 for x in lv.get("b") or []])
    vt = lv.get("val_type")
    if vt is not None:
        vt = vt if isinstance(vt, int) else VALTYPES.index(vt)
        if vt:
            out += f_varint(20, vt)
    return out


def enc_attr_value(v):
    out = b""
    for k, x in v.items():
        if x is None:
            continue
        if k == "s":
            out += f_bytes(2, x)
        elif k == "i":
            out += f_varint(3, x)
        elif k == "f":
            out += f_float(4, to_float(x))
        elif k == "b":
            out += f_varint(5, 1 if x else 0)
        elif k == "dt":
            out += f_varint(15, dtype_num(x))
        elif k == "list":
            out += f_bytes(1, enc_list(x))
        elif k in OTHER_ATTR:
            out += f_bytes(OTHER_ATTR[k], b"")
    return out


def enc_attrs(num, attrs):
    out = b""
    for a in attrs or []:
        entry = f_bytes(1, a.get("key", "")) + f_bytes(2, enc_attr_value(a.get("value") or {}))
        out += f_bytes(num, entry)
    return out


def enc_desc(d):
    out = b""
    if d.get("dtype") is not None and dtype_num(d["dtype"]):
        out += f_varint(2, dtype_num(d["dtype"]))
    dims = (d.get("shape") or {}).get("dim") or []
    if dims:
        out += f_bytes(3, packed_varints(1, dims))
    if d.get("layout"):
        out += f_bytes(4, d["layout"])
    out += enc_attrs(5, d.get("attr"))
    return out


def enc_op(op):
    out = f_bytes(1, op.get("name", "")) if op.get("name") else b""
    if op.get("type"):
        out += f_bytes(2, op["type"])
    for i in op.get("input") or []:
        out += f_bytes(5, i)
    out += enc_attrs(10, op.get("attr"))
    for d in op.get("input_desc") or []:
        out += f_bytes(33, enc_desc(d or {}))
    for d in op.get("output_desc") or []:
        out += f_bytes(34, enc_desc(d or {}))
    for g in op.get("subgraph_name") or []:
        out += f_bytes(35, g)
    return out


def enc_model(m):
    out = f_bytes(1, m["name"]) if m.get("name") else b""
    if m.get("version"):
        out += f_varint(2, m["version"])
    for g in m.get("graph") or []:
        gb = f_bytes(1, g["name"]) if g.get("name") else b""
        for op in g.get("op") or []:
            gb += f_bytes(6, enc_op(op))
        out += f_bytes(7, gb)
    out += enc_attrs(11, m.get("attr"))
    return out


# ---- protobuf text format ----

def q(s):
    out = []
    for ch in s.encode():
        c = chr(ch)
        if c in "\"\\":
            out.append("\\" + c)
        elif 0x20 <= ch < 0x7f:
            out.append(c)
        else:
            out.append("\\%03o" % ch)
    return '"' + "".join(out) + '"'


def t_value(v, ind):
    p = " " * ind
    lines = []
    for k, x in v.items():
        if x is None:
            continue
        if k == "s":
            lines.append(p + "s: " + q(x))
        elif k == "i":
            lines.append(p + "i: %d" % x)
        elif k == "f":
            lines.append(p + "f: %s" % repr(to_float(x)))
        elif k == "b":
            lines.append(p + "b: " + ("true" if x else "false"))
        elif k == "dt":
            lines.append(p + "dt: %d" % dtype_num(x))
        elif k == "list":
            lines.append(p + "list {")
            for s in x.get("s") or []:
                lines.append(p + "  s: " + q(s))
            for i in x.get("i") or []:
                lines.append(p + "  i: %d" % i)
            for f in x.get("f") or []:
                lines.append(p + "  f: %s" % repr(to_float(f)))
            for b in x.get("b") or []:
                lines.append(p + "  b: " + ("true" if b else "false"))
            vt = x.get("val_type")
            if vt not in (None, 0, "VT_LIST_NONE"):
                lines.append(p + "  val_type: " + (vt if isinstance(vt, str) else VALTYPES[vt]))
            lines.append(p + "}")
        elif k in OTHER_ATTR:
            lines.append(p + k + " {")
            lines.append(p + "}")
    return lines


def t_attrs(attrs, ind):
    p = " " * ind
    lines = []
    for a in attrs or []:
        lines.append(p + "attr {")
        lines.append(p + "  key: " + q(a.get("key", "")))
        lines.append(p + "  value {")
        lines += t_value(a.get("value") or {}, ind + 4)
        lines.append(p + "  }")
        lines.append(p + "}")
    return lines


def t_desc(name, d, ind):
    p = " " * ind
    lines = [p + name + " {"]
    if d.get("dtype") is not None and dtype_num(d["dtype"]):
        lines.append(p + "  dtype: " + DTYPES[dtype_num(d["dtype"])])
    dims = (d.get("shape") or {}).get("dim") or []
    if dims:
        lines.append(p + "  shape {")
        for x in dims:
            lines.append(p + "    dim: %d" % x)
        lines.append(p + "  }")
    if d.get("layout"):
        lines.append(p + "  layout: " + q(d["layout"]))
    lines += t_attrs(d.get("attr"), ind + 2)
    lines.append(p + "}")
    return lines


def text_model(m):
    lines = []
    if m.get("name"):
        lines.append("name: " + q(m["name"]))
    if m.get("version"):
        lines.append("version: %d" % m["version"])
    for g in m.get("graph") or []:
        lines.append("graph {")
        if g.get("name"):
            lines.append("  name: " + q(g["name"]))
        for op in g.get("op") or []:
            lines.append("  op {")
            if op.get("name"):
                lines.append("    name: " + q(op["name"]))
            if op.get("type"):
                lines.append("    type: " + q(op["type"]))
            for i in op.get("input") or []:
                lines.append("    input: " + q(i))
            lines += t_attrs(op.get("attr"), 4)
            for d in op.get("input_desc") or []:
                lines += t_desc("input_desc", d or {}, 4)
            for d in op.get("output_desc") or []:
                lines += t_desc("output_desc", d or {}, 4)
            for sg in op.get("subgraph_name") or []:
                lines.append("    subgraph_name: " + q(sg))
            lines.append("  }")
        lines.append("}")
    lines += t_attrs(m.get("attr"), 0)
    return "\n".join(lines) + "\n"


# ---- .om ----

MODEL_DEF, WEIGHTS_DATA, TASK_INFO = 0, 1, 2


def om_file(modeldefs, name, legacy=False):
    body = b""
    for md in modeldefs:
        parts = [(MODEL_DEF, md), (WEIGHTS_DATA, b"\0" * 64), (TASK_INFO, b"\x0a\x00")]
        off = 0
        if legacy:
            table = struct.pack("<I", len(parts))
            for t, data in parts:
                table += struct.pack("<III", t, off, len(data))
                off += len(data)
        else:
            table = struct.pack("<I4x", len(parts))
            for t, data in parts:
                table += struct.pack("<I4xQQ", t, off, len(data))
                off += len(data)
        body += table + b"".join(d for _, d in parts)
    hdr = bytearray(256)
    struct.pack_into("<III", hdr, 0, 0x444F4D49, 256, 0x20000000)
    struct.pack_into("<I", hdr, 76, len(body) if legacy else 0)
    hdr[82] = 1                                 # standard model
    nb = name.encode()[:31]
    hdr[84:84 + len(nb)] = nb
    struct.pack_into("<I", hdr, 152, 2)         # om_ir_version
    struct.pack_into("<I", hdr, 156, len(modeldefs))
    struct.pack_into("<Q", hdr, 184, 0 if legacy else len(body))
    return bytes(hdr) + body


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        m = json.load(f)
    args = argv[2:]
    legacy = "--legacy-table" in args
    nmodels = 1
    if "--models" in args:
        nmodels = int(args[args.index("--models") + 1])
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--binary", "--text", "--om"):
            out = args[i + 1]
            i += 2
            if a == "--binary":
                data = enc_model(m)
            elif a == "--text":
                data = text_model(m).encode()
            else:
                mds = [enc_model(m)]
                for k in range(1, nmodels):
                    sub = dict(m)
                    sub["graph"] = [dict(g, name=g.get("name", "") + "_sub%d" % k) for g in m.get("graph") or []]
                    mds.append(enc_model(sub))
                data = om_file(mds, m.get("name", ""), legacy)
            with open(out, "wb") as f:
                f.write(data)
        elif a == "--models":
            i += 2
        else:
            i += 1


if __name__ == "__main__":
    main(sys.argv)
