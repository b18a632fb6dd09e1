# source: variant of 1160_hairmatte_image_gradient_loss_argmax.py
# framework: torch
# family: A
# kind: nondiff-op-on-loss-path
# pitfall: a matting gradient loss helper turns the logits into a hard mask with torch.argmax(logits, dim=1, keepdim=True).to(logits.dtype); the mask is constant, so the helper's term has no gradient path to the network
# expect: line 19 — torch.argmax(..., keepdim=True) makes the mask a constant: the gradient-consistency term trains nothing
# checked: ran, reproduces (grad_loss.requires_grad is False)

import torch
import torch.nn as nn
import torch.nn.functional as F


def image_gradients(t):
    return t[..., :, 1:] - t[..., :, :-1], t[..., 1:, :] - t[..., :-1, :]


def gradient_consistency_loss(logits, gray):
    mask = torch.argmax(logits, dim=1, keepdim=True).to(logits.dtype)
    mx, my = image_gradients(mask)
    ix, iy = image_gradients(gray)
    return (mx.abs() * (1 - ix.abs())).mean() + (my.abs() * (1 - iy.abs())).mean()


def train(model, optimizer, batches):
    for image, target in batches:
        logits = model(image)
        grad_loss = gradient_consistency_loss(logits, image.mean(1, keepdim=True))
        loss = F.cross_entropy(logits, target) + 0.5 * grad_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return grad_loss


net = nn.Conv2d(3, 2, 3, padding=1)
gl = train(net, torch.optim.SGD(net.parameters(), lr=0.1), [(torch.rand(2, 3, 16, 16), (torch.rand(2, 16, 16) > 0.5).long())])
print(gl.requires_grad)
