# source: https://github.com/pytorch/functorch/issues/337
# framework: torch
# family: F
# kind: func-transform-data-dependent
# pitfall: a function vectorised with vmap indexes a lookup table with input_tensor[j].item(); under vmap the input is a batched tensor without a single value, so .item() is unsupported
# expect: line 22 — .item() on a tensor inside a vmap-transformed function (no batching rule; use tensor indexing / gather instead)
# checked: ran, reproduces (RuntimeError: vmap: It looks like you're calling .item() on a Tensor)

import torch
from torch.func import vmap

device = torch.device("cpu")

sum = torch.zeros([100, 10], dtype=torch.int32).to(device)
lookup = torch.randint(100, (20, 1000, 10)).to(device)
input_tensor = torch.randint(1000, (100, 20)).to(device)


def test_fun(sum, input_tensor):
    for j in range(20):
        for i in range(10):
            sum[i] += lookup[j, input_tensor[j].item(), i]
    return sum


# non-vectorized version
for i in range(100):
    test_fun(sum[i], input_tensor[i])

# vectorized version throws error
test_fun_vec = vmap(test_fun)
test_fun_vec(sum, input_tensor)
