# source: variant of 1058_conv_y_grad_none_variable.py
# framework: torch
# family: D
# kind: nonleaf-grad-none
# pitfall: none — model.to(device) moves parameters in place, they stay leaves; reading conv.weight.grad after backward is fine
# checked: ran, correct (weight.grad populated)
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
conv = nn.Conv2d(1, 1, 3).to(device)
x = torch.rand(8, 1, 5, 5, device=device)
y = conv(x)
final = torch.sum(y)
final.backward()
print('w.grad norm', conv.weight.grad.norm().item())
