#!/usr/bin/env python3
"""One ONNX graph whose outputs are the means of several nets' outputs (the same input,
`planes`; policy logits, win/draw/loss logits and score each averaged).

    python3 ensemble.py OUT.onnx A.onnx B.onnx [...]
"""
import sys, onnx
from onnx import helper, compose
out_path, paths = sys.argv[1], sys.argv[2:]
names = ['policy_logits', 'wdl_logits', 'score']
merged = None
for k, p in enumerate(paths):
    m = onnx.load(p)
    m = compose.add_prefix(m, f'n{k}_', rename_inputs=False)
    if merged is None:
        merged = m
    else:
        g = merged.graph
        g.node.extend(m.graph.node); g.initializer.extend(m.graph.initializer)
        g.output.extend(m.graph.output); g.value_info.extend(m.graph.value_info)
g = merged.graph
outs = list(g.output)
del g.output[:]
n = len(paths)
scale = helper.make_tensor('ens_scale', onnx.TensorProto.FLOAT, [], [1.0 / n])
g.initializer.append(scale)
for name in names:
    g.node.append(helper.make_node('Sum', [f'n{k}_{name}' for k in range(n)], [f'{name}_sum']))
    g.node.append(helper.make_node('Mul', [f'{name}_sum', 'ens_scale'], [name]))
    proto = next(o for o in outs if o.name == f'n0_{name}')
    vi = onnx.ValueInfoProto(); vi.CopyFrom(proto); vi.name = name
    g.output.append(vi)
onnx.checker.check_model(merged)
onnx.save(merged, out_path)
print('wrote', out_path)
