# a working program; --fix must not change what it prints (from the trust review's attack programs)
# safe-fix: none
import torch
a = torch.tensor([0.3], requires_grad=True)
b = torch.tensor([1.2], requires_grad=True)
vec = torch.tensor([torch.cos(a), torch.cos(b)])
loss = (vec * torch.tensor([1.0, 2.0])).sum() + a.sum() + b.sum()
loss.backward()
print("vec shape", tuple(vec.shape), "loss", loss.item())
