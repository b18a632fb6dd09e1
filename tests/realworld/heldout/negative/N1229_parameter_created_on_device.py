# source: https://github.com/pytorch/pytorch/issues/17484
# framework: torch
# family: D
# kind: params-not-in-optimizer
# negative: the working variant shown in the issue: the tensor is created on the device and then wrapped, nn.Parameter(torch.rand(5, device=...)), so the parameter is registered
# mimics: positive/1229_parameter_to_cuda_not_registered.py
# expect: no finding
# checked: parse only (needs CUDA)

import torch


class A(torch.nn.Module):
    def __init__(self):
        super(A, self).__init__()
        self.par = torch.nn.Parameter(torch.rand(5, device='cuda'))

    def forward(self, x):
        return (x * self.par).sum()


a = A()
print(a.state_dict())
optimizer = torch.optim.SGD(a.parameters(), lr=0.1)
loss = a(torch.ones(5, device=a.par.device))
optimizer.zero_grad()
loss.backward()
optimizer.step()
