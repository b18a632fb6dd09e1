# source: https://github.com/pytorch/pytorch/issues/45405
# framework: torch
# family: F
# kind: other-grad-mode-off-in-custom-backward
# pitfall: a custom Function's backward recomputes its output from the saved tensors and calls torch.autograd.grad on it, but backward runs with grad mode off, so the recomputed out is not connected to x0 and w and the gradients are None
# expect: line 27 — inside backward grad mode is disabled: out has no graph back to x0/w (setting requires_grad on it afterwards makes it a new leaf); wrap the recompute in torch.enable_grad() with detached inputs
# checked: ran, reproduces (autograd.grad returns (None,) inside backward; the tuple return then fails)

import torch
import torch.nn as nn


class func(torch.autograd.Function):

    '''
    The size of time slots is 1 bigger than the depth
    '''
    @staticmethod
    def forward(ctx, x0, w):
        out = torch.sum(x0 * w)
        ctx.save_for_backward(w, x0)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        w, x0 = ctx.saved_tensors
        out = torch.sum(x0 * w)
        out.requires_grad = True
        x0.requires_grad = True
        w.requires_grad = True
        print("XXXX ", out.requires_grad, x0.requires_grad, w.requires_grad)
        dfdx = torch.autograd.grad(outputs=out, inputs=x0, grad_outputs=grad_output, allow_unused=True)
        dfdw = torch.autograd.grad(outputs=out, inputs=w, grad_outputs=grad_output, allow_unused=True)
        print("YYYY ", dfdx, dfdw)
        return dfdx, dfdw


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.w = torch.rand(2, 3)

    def forward(self, x):
        out = func.apply(x, self.w)
        return out


def main():
    net = Net()
    data = torch.rand(2, 3)
    data.requires_grad = True
    gt = 5
    out = net(data)
    loss = out - gt
    print("run backward")
    loss.backward()
    print(data.grad)


main()
