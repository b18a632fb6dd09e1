# source: variant of 1045_checkpoint_lambda_input_no_grad.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: checkpoint_sequential (reentrant by default) splits an MLP into segments and is called on the input batch, which does not require grad; the checkpointed segments' parameters get no gradient (only the last, uncheckpointed segment trains)
# expect: line 22 — reentrant checkpoint_sequential on an input that does not require grad
# checked: ran, reproduces (warning "None of the inputs have requires_grad=True"; layers[0].weight.grad is None, the last layer's grad is set)
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint_sequential


class DeepMLP(nn.Module):
    def __init__(self, width=32, depth=6):
        super().__init__()
        layers = [nn.Linear(8, width), nn.ReLU()]
        for _ in range(depth):
            layers += [nn.Linear(width, width), nn.ReLU()]
        self.layers = nn.Sequential(*layers, nn.Linear(width, 1))

    def forward(self, x):
        return checkpoint_sequential(self.layers, 3, x)


model = DeepMLP()
model(torch.randn(4, 8)).sum().backward()
print(model.layers[0].weight.grad, model.layers[-1].weight.grad is not None)
