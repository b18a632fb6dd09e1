# source: https://github.com/rfeinman/pytorch-minimize/issues/29
# framework: torch
# family: B
# kind: backward-create-graph-leak
# pitfall: for Hessian-based methods the Minimizer's closure calls f.backward(create_graph=True), which stores graph-carrying gradients in every parameter's .grad (a parameter <-> grad reference cycle); iterating the optimizer on a module keeps these graphs alive and eventually runs out of GPU memory
# expect: line 88 — backward(create_graph=True) into the module's .grad fields creates the reference cycle PyTorch warns about ("We recommend using autograd.grad when creating the graph to avoid this"); memory grows until torch.cuda.OutOfMemoryError
# checked: parse only (needs torchmin and a GPU to see the OOM); Minimizer from torchmin/optim/minimizer.py trimmed to the closure path, the training loop at the bottom follows examples/train_mnist_Minimizer.py (reconstructed)
from functools import reduce
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Optimizer


class LinearOperator:
    """A generic linear operator to use with Minimizer"""
    def __init__(self, matvec, shape, dtype=torch.float, device=None):
        self.rmv = matvec
        self.mv = matvec
        self.shape = shape
        self.dtype = dtype
        self.device = device


class Minimizer(Optimizer):
    def __init__(self,
                 params,
                 method='bfgs',
                 **minimize_kwargs):
        assert isinstance(method, str)
        method_ = method.lower()

        self._hessp = self._hess = False
        if method_ in ['bfgs', 'l-bfgs', 'cg']:
            pass
        elif method_ in ['newton-cg', 'trust-ncg', 'trust-krylov']:
            self._hessp = True
        elif method_ in ['newton-exact', 'dogleg', 'trust-exact']:
            self._hess = True
        else:
            raise ValueError('Unknown method {}'.format(method))

        defaults = dict(method=method_, **minimize_kwargs)
        super().__init__(params, defaults)

        self._nfev = [0]
        self._params = self.param_groups[0]['params']
        self._numel_cache = None
        self._closure = None

    def _numel(self):
        if self._numel_cache is None:
            self._numel_cache = reduce(lambda total, p: total + p.numel(), self._params, 0)
        return self._numel_cache

    def _gather_flat_param(self):
        params = []
        for p in self._params:
            p = p.data.view(-1)
            params.append(p)
        return torch.cat(params)

    def _gather_flat_grad(self):
        grads = []
        for p in self._params:
            if p.grad is None:
                g = p.new_zeros(p.numel())
            else:
                g = p.grad.view(-1)
            grads.append(g)
        return torch.cat(grads)

    def _set_flat_param(self, value):
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.copy_(value[offset:offset+numel].view_as(p))
            offset += numel
        assert offset == self._numel()

    def closure(self, x):
        from torchmin.function import sf_value

        assert self._closure is not None
        self._set_flat_param(x)
        with torch.enable_grad():
            f = self._closure()
            f.backward(create_graph=self._hessp or self._hess)
            grad = self._gather_flat_grad()

        grad_out = grad.detach().clone()
        hessp = None
        hess = None
        if self._hessp or self._hess:
            grad_accum = grad.detach().clone()
            def hvp(v):
                assert v.shape == grad.shape
                grad.backward(gradient=v, retain_graph=True)
                output = self._gather_flat_grad().detach() - grad_accum
                grad_accum.add_(output)
                return output

            numel = self._numel()
            if self._hessp:
                hessp = LinearOperator(hvp, shape=(numel, numel),
                                       dtype=grad.dtype, device=grad.device)
            if self._hess:
                eye = torch.eye(numel, dtype=grad.dtype, device=grad.device)
                hess = torch.zeros(numel, numel, dtype=grad.dtype, device=grad.device)
                for i in range(numel):
                    hess[i] = hvp(eye[i])

        return sf_value(f=f.detach(), grad=grad_out.detach(), hessp=hessp, hess=hess)

    @torch.no_grad()
    def step(self, closure):
        from torchmin.minimize import minimize

        closure_ = closure
        def closure():
            self._nfev[0] += 1
            return closure_()
        self._closure = closure

        x0 = self._gather_flat_param()
        kwargs = {k:v for k,v in self.param_groups[0].items() if k != 'params'}
        result = minimize(self, x0, **kwargs)
        self._set_flat_param(result.x)
        return result


device = torch.device('cuda')
model = nn.Sequential(nn.Flatten(), nn.Linear(784, 64), nn.Tanh(), nn.Linear(64, 10)).to(device)
optimizer = Minimizer(model.parameters(), method='dogleg', max_iter=20)
train_loader = [(torch.randn(256, 1, 28, 28), torch.randint(0, 10, (256,))) for _ in range(100)]

for epoch in range(10):
    for data, target in train_loader:
        data, target = data.to(device), target.to(device)

        def closure():
            optimizer.zero_grad()
            output = model(data)
            loss = F.cross_entropy(output, target)
            return loss

        optimizer.step(closure)
