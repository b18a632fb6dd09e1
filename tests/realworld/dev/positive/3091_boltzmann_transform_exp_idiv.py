# source: https://github.com/pytorch/pytorch/pull/5842
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: a hand-written softmax: exp() saves its output for backward, and the normalisation `probs /= probs.sum(-1, True)` divides that saved output in place.
# expect: line 28 — `probs /= probs.sum(-1, True)` on the output of .exp(), which ExpBackward saved
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 5]], which is output 0 of Exp, is at version 1; expected version 0 instead -- pre-PR torch/distributions/transforms.py BoltzmannTransform; driver added)
import torch
from torch.distributions import constraints
from torch.distributions.transforms import Transform


class BoltzmannTransform(Transform):
    """
    Transform from unconstrained space to the simplex via `y = exp(x)` then
    normalizing.
    """
    domain = constraints.real
    codomain = constraints.simplex
    event_dim = 1

    def __eq__(self, other):
        return isinstance(other, BoltzmannTransform)

    def _call(self, x):
        logprobs = x
        probs = (logprobs - logprobs.max(-1, True)[0]).exp()
        probs /= probs.sum(-1, True)
        return probs

    def _inverse(self, y):
        probs = y
        return probs.log()


# driver: push unconstrained parameters through the transform and backprop
torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
t = BoltzmannTransform()
probs = t(x)
loss = (probs * torch.arange(5.)).sum()
loss.backward()
print(x.grad)
