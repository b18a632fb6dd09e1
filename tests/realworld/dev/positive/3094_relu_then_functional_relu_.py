# source: https://github.com/pytorch/pytorch/issues/148835
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: "Relu saves result for backward. Calling relu_() on the result of previous relu will mutate the saved tensor for backward" -- functional in-place activation applied to an out-of-place relu output.
# expect: line 20 — `x = torch.nn.functional.relu_(x)` on the output of F.relu, which ReluBackward saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [10]], which is output 0 of Relu, is at version 1; expected version 0 instead -- eager repro from the maintainer comment, verbatim)
import torch
torch.set_grad_enabled(True)


class SimpleModel(torch.nn.Module):
    def __init__(self):
        super(SimpleModel, self).__init__()
        self.linear = torch.nn.Linear(10, 10)

    def forward(self, x):
        x = self.linear(x)
        x = torch.nn.functional.relu(x)
        x = torch.nn.functional.relu_(x)
        return x

model = SimpleModel()
inputs = torch.randn(1, 10)
compiled_model = model
compiled_out = compiled_model(*inputs)
compiled_out.sum().backward()
print("ok")
