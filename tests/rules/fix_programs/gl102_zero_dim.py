# torch.tensor([...]) of 0-dim tensors: torch.stack gives the same values and keeps the graph
# safe-fix: GL102
import torch
torch.manual_seed(0)
a = torch.tensor(0.3, requires_grad=True)
b = torch.tensor(1.2, requires_grad=True)
vec = torch.tensor([torch.cos(a), torch.cos(b)])
loss = (vec * torch.tensor([1.0, 2.0])).sum() + a + b
loss.backward()
print("vec", vec.detach().tolist(), "loss", round(loss.item(), 5))
