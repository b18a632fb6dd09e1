# source: variant of 1066_pyhessian_backward_create_graph.py
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: a sharpness tracker kept on the trainer computes the loss dict of the model and calls out["loss"].backward(create_graph=True) to read the gradients from .grad for a Hessian-vector product; the parameters and their graph-carrying gradients form a reference cycle at every evaluation
# expect: line 32 — backward(create_graph=True) stores graph-carrying gradients in .grad; use torch.autograd.grad(out["loss"], params, create_graph=True)
# checked: ran, reproduces (the "reference cycle" UserWarning; the stored gradients carry a grad_fn)

import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, x, y):
        pred = self.body(x)
        return {"pred": pred, "loss": F.mse_loss(pred, y)}


class SharpnessTracker:
    def __init__(self, model):
        self.model = model
        self.params = [p for p in model.parameters() if p.requires_grad]

    def hessian_vector_product(self, batch, vec):
        self.model.zero_grad()
        out = self.model(*batch)
        out["loss"].backward(create_graph=True)
        grads = [p.grad for p in self.params]
        return torch.autograd.grad(grads, self.params, grad_outputs=vec)


model = Regressor()
tracker = SharpnessTracker(model)
hv = tracker.hessian_vector_product((torch.randn(16, 4), torch.randn(16, 1)),
                                    [torch.ones_like(p) for p in tracker.params])
print(model.body[0].weight.grad.grad_fn, hv[0].shape)
