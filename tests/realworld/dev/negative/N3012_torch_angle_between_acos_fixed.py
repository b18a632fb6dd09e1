# source: https://discuss.pytorch.org/t/numerically-stable-acos-dot-product-derivative/12851
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: fix from the thread (hbredin): clamp to [-1 + eps, 1 - eps] instead of [-1, 1] so acos is never evaluated at +-1 and its derivative stays finite.
# expect: no finding
# checked: ran (torch 2.13 CPU): finite gradients (zeros, clamped)
import torch
import torch.nn.functional as F

eps = 1e-7


def unit_vector(vector):
    # stub: not shown in the thread; eps-guarded
    return F.normalize(vector, dim=0)


def angle_between(vector0, vector1):
    unit_vector0 = unit_vector(vector0)
    unit_vector1 = unit_vector(vector1)
    return unit_vector0.dot(unit_vector1).clamp(-1.0 + eps, 1.0 - eps).acos()


v0 = torch.tensor([1.0, 0.0, 0.0], requires_grad=True)
v1 = torch.tensor([3.0, 0.0, 0.0], requires_grad=True)  # parallel to v0
loss = angle_between(v0, v1)
loss.backward()
print(loss, v0.grad, v1.grad)
