# source: https://github.com/YutaroOgawa/pytorch_advanced/issues/160
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: accepted fix in the thread (and in the notebook): assign through `m.weight.data[...]`, which autograd does not track.
# expect: no finding
# checked: ran (torch 2.13 CPU), runs clean, exit 0
import torch
import torch.nn as nn

input = torch.tensor([[[[1., 1.], [2., 2.]]]])
print("入力データ")
print(input)
print("-----")

print("通常の畳み込み")
m = nn.Conv2d(1, 1, 2, stride=1, bias=False)
m.weight.data[0, 0, 0, 0] = 1
m.weight.data[0, 0, 0, 1] = 2
m.weight.data[0, 0, 1, 0] = 3
m.weight.data[0, 0, 1, 1] = 4
print("カーネル")
print(m.weight)
print("出力")
print(m(input))

print("-----")
print("転置畳み込み")
m = nn.ConvTranspose2d(1, 1, 2, stride=1, bias=False)
m.weight.data[0, 0, 0, 0] = 1
m.weight.data[0, 0, 0, 1] = 2
m.weight.data[0, 0, 1, 0] = 3
m.weight.data[0, 0, 1, 1] = 4
print("カーネル")
print(m.weight)
print("出力")
print(m(input))
