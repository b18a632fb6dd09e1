# source: https://github.com/kornia/kornia/issues/918
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: binary focal loss uses torch.pow(1 - probs, gamma) / torch.pow(probs, gamma) with 0 < gamma < 1; when sigmoid saturates to exactly 1 (or 0) the base is 0 and d/dp p**gamma = gamma * p**(gamma-1) = inf, multiplied by sigmoid' = 0 -> NaN.
# expect: line 15 — torch.pow((1. - probs), gamma) (fractional power of 0)
# checked: ran (torch 2.13 CPU), reproduces: prediction.grad = [[nan, nan, nan, nan]]
import torch


def binary_focal_loss_with_logits(input, target, alpha=0.25, gamma=2.0, reduction='none', eps=1e-8):
    # kornia 0.5.0 kornia/losses/focal.py (type/shape checks omitted)
    probs = torch.sigmoid(input)
    target = target.unsqueeze(dim=1)
    loss_tmp = -alpha * torch.pow((1. - probs), gamma) * target * torch.log(probs + eps) \
               - (1 - alpha) * torch.pow(probs, gamma) * (1. - target) * torch.log(1. - probs + eps)
    loss_tmp = loss_tmp.squeeze(dim=1)

    if reduction == 'none':
        loss = loss_tmp
    elif reduction == 'mean':
        loss = torch.mean(loss_tmp)
    elif reduction == 'sum':
        loss = torch.sum(loss_tmp)
    else:
        raise NotImplementedError("Invalid reduction mode: {}".format(reduction))
    return loss


prediction = torch.tensor([[-100., -100., 100., 100.]], requires_grad=True)
target = torch.tensor([[0., 1., 0., 1.]])
loss = binary_focal_loss_with_logits(prediction, target, gamma=0.5, reduction='mean')
loss.backward()
print(prediction.grad)
# > tensor([[nan, nan, nan, nan]])
