# source: https://github.com/pytorch/pytorch/issues/17484
# framework: torch
# family: D
# kind: params-not-in-optimizer
# pitfall: the module creates its parameter as torch.nn.Parameter(torch.rand(5)).to('cuda'); .to() on a Parameter returns a new non-leaf tensor, so self.par is not registered: state_dict() is empty and the parameter is invisible to parameters() and any optimizer
# expect: line 15 — .to('cuda') applied to the Parameter instead of to the wrapped tensor; the issue shows that nn.Parameter(torch.rand(5, device='cuda')) registers it
# checked: parse only (needs CUDA); the class A verbatim, with a forward and a training step added

import torch


class A(torch.nn.Module):
    def __init__(self):
        super(A, self).__init__()
        self.par = torch.nn.Parameter(torch.rand(5)).to('cuda')

    def forward(self, x):
        return (x * self.par).sum()


a = A()
print(a.state_dict())
optimizer = torch.optim.SGD(a.parameters(), lr=0.1)
loss = a(torch.ones(5, device=a.par.device))
optimizer.zero_grad()
loss.backward()
optimizer.step()
