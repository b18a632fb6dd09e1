# source: https://github.com/cybertronai/autograd-hacks/issues/11
# framework: torch
# family: E
# kind: float-equality-on-grads
# pitfall: a training-time sanity check asserts that the mean of the per-example gradients equals the batch gradient with torch.allclose's default tolerances (atol=1e-8); the two float32 reductions differ by rounding, so the assertion eventually fails although both gradients are correct
# expect: line 50 — comparing two independently reduced float32 gradients with default allclose tolerances is effectively an exact-equality test ("This assertion failed at some point during training")
# checked: parse only (needs autograd_hacks, which is not on PyPI); the assertion is verbatim from the thread, the model/hook lines follow the library's README usage
import torch
import torch.nn as nn
import torch.nn.functional as F
import autograd_hacks


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 20, 5, 1)
        self.conv2 = nn.Conv2d(20, 50, 5, 1)
        self.fc1 = nn.Linear(4 * 4 * 50, 500)
        self.fc2 = nn.Linear(500, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.max_pool2d(x, 2, 2)
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2, 2)
        x = x.view(-1, 4 * 4 * 50)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
autograd_hacks.add_hooks(model)

for step in range(1000):
    data, targets = torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))
    optimizer.zero_grad()
    autograd_hacks.clear_backprops(model)
    output = model(data)
    loss_fn(output, targets).backward(retain_graph=True)
    autograd_hacks.compute_grad1(model)

    hack_grads = torch.cat([param.grad1.flatten(start_dim=1) for param in model.parameters()
                                           if hasattr(param, 'grad1')], dim=1)

    grads = torch.cat([param.grad.flatten() for param in model.parameters() if hasattr(param, 'grad1')], dim=0)

    assert torch.allclose(torch.mean(hack_grads, dim=0), grads)
    optimizer.step()
