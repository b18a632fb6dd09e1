# source: https://github.com/pytorch/pytorch/issues/148835
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: look-alike that is fine: with the duplicate out-of-place relu removed, relu_ runs directly on the Linear output; addmm saves its inputs, not its output, so nothing saved is mutated (per the maintainer's explanation, only relu_ on a relu result is the problem).
# expect: no finding
# checked: ran, clean (prints ok)
import torch
torch.set_grad_enabled(True)


class SimpleModel(torch.nn.Module):
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.linear = torch.nn.Linear(10, 10)

    def forward(self, x):
        x = self.linear(x)
        x = torch.nn.functional.relu_(x)
        return x

model = SimpleModel()
inputs = torch.randn(1, 10)
compiled_model = model
compiled_out = compiled_model(*inputs)
compiled_out.sum().backward()
print("ok")
