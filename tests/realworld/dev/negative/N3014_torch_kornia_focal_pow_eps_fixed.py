# source: https://github.com/kornia/kornia/issues/918
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: fix suggested in the issue: include eps inside torch.pow as well, so the fractional power is never taken at exactly 0.
# expect: no finding
# checked: ran (torch 2.13 CPU): prediction.grad finite ([0, -0, 0, -0])
import torch


def binary_focal_loss_with_logits(input, target, alpha=0.25, gamma=2.0, reduction='none', eps=1e-8):
    probs = torch.sigmoid(input)
    target = target.unsqueeze(dim=1)
    loss_tmp = - alpha * torch.pow((1. - probs + eps), gamma) * target * torch.log(probs + eps) \
               - (1 - alpha) * torch.pow(probs + eps, gamma) * (1. - target) * torch.log(1. - probs + eps)
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
