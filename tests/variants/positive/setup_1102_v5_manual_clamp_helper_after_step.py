# source: variant of 1102_graphstorm_clip_after_step.py (clip_gradient helper taken from 1105_text_classification_no_zero_grad.py)
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: the clip_gradient(optimizer, grad_clip) helper (clamps p.grad in place over optimizer.param_groups) is called after optimizer.step(), so the step used the unclamped gradients
# expect: line 26 — clip_gradient(...) called after optimizer.step()
# checked: ran, reproduces (with SGD lr=1 the update is far larger than the clip bound: clipping had no effect on the step)
import torch
import torch.nn as nn
import torch.nn.functional as F


def clip_gradient(optimizer, grad_clip):
    for group in optimizer.param_groups:
        for param in group['params']:
            if param.grad is not None:
                param.grad.data.clamp_(-grad_clip, grad_clip)


def train(model, optimizer, loader, grad_clip):
    for text, label in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(text), label)
        loss.backward()
        optimizer.step()
        clip_gradient(optimizer, grad_clip)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(12, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    before = model.weight.detach().clone()
    train(model, optimizer, [(torch.randn(4, 12) * 50, torch.randint(0, 2, (4,)))], 1e-4)
    print("max |update|:", (model.weight - before).abs().max().item(), "(<=1e-4 if clamped first)")
