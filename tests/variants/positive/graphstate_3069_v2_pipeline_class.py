# source: variant of 3069_cuda0_chain_two_stage_backward.py
# framework: torch
# family: C
# kind: nonleaf-grad-none
# pitfall: a pipeline-stage trainer keeps the stage input on self; it is created with requires_grad=True and then .cuda()'d, so self.x.grad is None after the two backward passes
# expect: line 19 — torch.randn(..., requires_grad=True).cuda() stored as self.x is a non-leaf
# checked: ran with a fake-CUDA shim (FAKECUDA), reproduces (x: None)
import torch
import torch.nn as nn


class TwoStage:
    def __init__(self):
        self.stage1 = nn.Linear(2, 2).cuda()
        self.stage2 = nn.Linear(2, 2).cuda()
        self.loss_fn = nn.MSELoss()

    def run(self):
        self.x = torch.randn(2, 2, requires_grad=True).cuda()
        h1 = self.stage1(self.x)
        h2 = h1.detach().requires_grad_()
        self.loss_fn(self.stage2(h2), torch.zeros(2, 2).cuda()).backward()
        h1.backward(h2.grad)
        return self.x.grad


print("x:", TwoStage().run())
