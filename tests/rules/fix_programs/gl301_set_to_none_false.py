# per-sample gradients kept as views of .grad while zero_grad(set_to_none=False) zeroes it in place:
# the fix (.clone()) makes the saved gradients right, so the printed values change; this program
# prints only their count and shapes
# safe-fix: GL301
import torch
torch.manual_seed(0)
model = torch.nn.Linear(5, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(4, 5)).pow(2).sum(dim=1)
per_sample = []
for i in range(4):
    opt.zero_grad(set_to_none=False)
    loss[i].backward(retain_graph=True)
    per_sample.append(model.weight.grad.view(-1, 1))
print(len(per_sample), tuple(torch.cat(per_sample, 1).shape))
