# source: https://github.com/YutaroOgawa/pytorch_advanced/issues/160
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: `m.weight` is an nn.Parameter (requires-grad leaf); index assignment `m.weight[0, 0, 0, 0] = 1` writes into a view of it outside no_grad.
# expect: line 18 — `m.weight[0, 0, 0, 0] = 1` in-place write into a view of a Parameter
# checked: ran (torch 2.13 CPU), reproduces (RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.)
import torch
import torch.nn as nn

input = torch.tensor([[[[1., 1.], [2., 2.]]]])
print("入力データ")
print(input)
print("-----")

print("通常の畳み込み")
m = nn.Conv2d(1, 1, 2, stride=1, bias=False)
m.weight[0, 0, 0, 0] = 1
m.weight[0, 0, 0, 1] = 2
m.weight[0, 0, 1, 0] = 3
m.weight[0, 0, 1, 1] = 4
print("カーネル")
print(m.weight)
print("出力")
print(m(input))

print("-----")
print("転置畳み込み")
m = nn.ConvTranspose2d(1, 1, 2, stride=1, bias=False)
m.weight[0, 0, 0, 0] = 1
m.weight[0, 0, 0, 1] = 2
m.weight[0, 0, 1, 0] = 3
m.weight[0, 0, 1, 1] = 4
print("カーネル")
print(m.weight)
print("出力")
print(m(input))
