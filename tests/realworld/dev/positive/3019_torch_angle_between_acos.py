# source: https://discuss.pytorch.org/t/numerically-stable-acos-dot-product-derivative/12851
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: angle_between() clamps the dot product of two unit vectors to [-1, 1] and takes .acos(); when the vectors are parallel the dot is exactly 1 and acos' = -inf, so the loss gradient becomes NaN.
# expect: line 20 — .clamp(-1.0, 1.0).acos() at dot == 1
# checked: ran (torch 2.13 CPU), reproduces: v0.grad = v1.grad = [nan, nan, nan]
import torch
import torch.nn.functional as F


def unit_vector(vector):
    # stub: not shown in the thread; eps-guarded here so that only the acos is singular
    return F.normalize(vector, dim=0)


def angle_between(vector0, vector1):
    unit_vector0 = unit_vector(vector0)
    unit_vector1 = unit_vector(vector1)
    return unit_vector0.dot(unit_vector1).clamp(-1.0, 1.0).acos()


v0 = torch.tensor([1.0, 0.0, 0.0], requires_grad=True)
v1 = torch.tensor([3.0, 0.0, 0.0], requires_grad=True)  # parallel to v0
loss = angle_between(v0, v1)
loss.backward()
print(loss, v0.grad, v1.grad)
