# source: https://github.com/amirgholami/PyHessian/issues/25
# framework: torch
# family: C
# kind: backward-create-graph-leak
# pitfall: the Hessian helper computes first-order gradients with loss.backward(create_graph=True) and reads them from p.grad, which triggers the reference-cycle warning (parameter <-> gradient) on every call
# expect: line 31 — backward(create_graph=True) keeps the double-backward graph attached to every parameter's .grad; torch.autograd.grad(loss, params, create_graph=True) avoids the cycle
# checked: ran, reproduces (the reference-cycle UserWarning; the stored gradients carry a grad_fn)

import torch
import torch.nn as nn


def get_params_grad(model):
    params = []
    grads = []
    for param in model.parameters():
        if not param.requires_grad:
            continue
        params.append(param)
        grads.append(0. if param.grad is None else param.grad + 0.)
    return params, grads


class hessian():
    def __init__(self, model, criterion, data=None, dataloader=None, cuda=True):
        self.model = model.eval()
        self.criterion = criterion
        self.inputs, self.targets = data
        outputs = self.model(self.inputs)
        loss = self.criterion(outputs, self.targets)
        loss.backward(create_graph=True)
        params, gradsH = get_params_grad(self.model)
        self.params = params
        self.gradsH = gradsH


model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1), nn.Sigmoid())
X_train, y_train = torch.randn(16, 4), torch.randint(0, 2, (16, 1)).float()
hessian_comp = hessian(model, nn.BCELoss(), data=(X_train, y_train), cuda=False)
print(hessian_comp.gradsH[0].grad_fn)
