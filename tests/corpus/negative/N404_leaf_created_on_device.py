# source: https://github.com/pytorch/pytorch/issues/12923
# family: D
# negative: optimised tensors are leaves: created directly with device=/dtype= and requires_grad=True, or moved first and then requires_grad_()
# mimics: requires_grad=True combined with .to(device) / dtype changes
# expect: no finding

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
style = torch.randn(1, 3, 64, 64, device=device, requires_grad=True)
offset = torch.zeros(1, 3, 1, 1).to(device).requires_grad_()
theta = torch.tensor([1.0, 0.1], dtype=torch.float64, requires_grad=True)
target = torch.rand(1, 3, 64, 64, device=device)
opt = torch.optim.Adam([style, offset, theta], lr=0.05)

for it in range(100):
    opt.zero_grad()
    loss = ((style + offset - target) ** 2).mean() + (theta ** 2).sum()
    loss.backward()
    opt.step()
print(style.is_leaf, offset.is_leaf, theta.is_leaf)
