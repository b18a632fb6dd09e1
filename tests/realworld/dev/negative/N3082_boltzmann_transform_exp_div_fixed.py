# source: https://github.com/pytorch/pytorch/pull/5842
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: fix of the PR ("Avoid in-place ops in BoltzmannTransform"): the normalisation is out of place, so the exp() output saved for backward is untouched.
# expect: no finding
# checked: ran, clean (prints x.grad)
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
        probs = probs / probs.sum(-1, True)
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
