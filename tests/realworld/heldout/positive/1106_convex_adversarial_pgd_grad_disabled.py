# source: https://github.com/locuslab/convex_adversarial/issues/34
# framework: torch
# family: A
# kind: loss-under-no-grad
# pitfall: evaluate_robust turns gradients off with torch.set_grad_enabled(False) for the whole evaluation loop; uncommenting the PGD attack inside that loop makes its loss.backward() fail
# expect: line 39 — gradients are disabled for the loop in which _pgd calls loss.backward(); the attack needs torch.enable_grad()
# checked: ran, reproduces (RuntimeError: element 0 of tensors does not require grad)

import torch
import torch.nn as nn
import torch.optim as optim
from torch.autograd import Variable


def _pgd(model, X, y, epsilon, niters=10, alpha=0.01):
    out = model(X)
    ce = nn.CrossEntropyLoss()(out, y)
    err = (out.data.max(1)[1] != y.data).float().sum() / X.size(0)

    X_pgd = Variable(X.data, requires_grad=True)
    for i in range(niters):
        opt = optim.Adam([X_pgd], lr=1e-3)
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(X_pgd), y)
        loss.backward()
        eta = alpha * X_pgd.grad.data.sign()
        X_pgd = Variable(X_pgd.data + eta, requires_grad=True)

        # adjust to be within [-epsilon, epsilon]
        eta = torch.clamp(X_pgd.data - X.data, -epsilon, epsilon)
        X_pgd.data = X.data + eta

    err_pgd = (model(X_pgd).data.max(1)[1] != y.data).float().sum() / X.size(0)
    return err, err_pgd


def evaluate_robust(loader, model, epsilon, epoch, log=None, verbose=0, **kwargs):
    model.eval()
    torch.set_grad_enabled(False)
    for i, (X, y) in enumerate(loader):
        X, y = X, y.long()
        out = model(Variable(X))
        _, pgd_err = _pgd(model, Variable(X), Variable(y), epsilon)
    torch.set_grad_enabled(True)


model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
test_loader = [(torch.rand(4, 1, 28, 28), torch.randint(0, 10, (4,)))]
evaluate_robust(test_loader, model, 0.1, 0)
