# source: https://github.com/CharlesShang/DCNv2/issues/13
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: the deformable-convolution test runs gradcheck on float32 CUDA tensors (with loosened eps/atol), which reports a Jacobian mismatch for the offsets; the known-issues note says to switch to double
# expect: line 42 — gradcheck on single-precision inputs ("At least one of the inputs ... is not of double precision"); the mismatch is precision, not a wrong backward
# checked: parse only (needs the compiled DCNv2 extension and CUDA)

import torch
from torch.autograd import gradcheck
from dcn_v2 import dcn_v2_conv

deformable_groups = 1
N, inC, inH, inW = 2, 2, 4, 4
outC = 2
kH, kW = 3, 3


def check_gradient_dconv():

    input = torch.rand(N, inC, inH, inW).cuda() * 0.01
    input.requires_grad = True

    offset = torch.randn(N, deformable_groups * 2 * kW * kH, inH, inW).cuda() * 2
    offset.requires_grad = True

    mask = torch.rand(N, deformable_groups * 1 * kW * kH, inH, inW).cuda()
    mask.requires_grad = True
    mask = torch.sigmoid(mask)

    weight = torch.randn(outC, inC, kH, kW).cuda()
    weight.requires_grad = True

    bias = torch.rand(outC).cuda()
    bias.requires_grad = True

    stride = 1
    padding = 1
    dilation = 1

    print('check_gradient_dconv: ',
          gradcheck(dcn_v2_conv, (input, offset, mask, weight, bias,
                                  stride, padding, dilation, deformable_groups),
                    eps=1e-3, atol=1e-4, rtol=1e-2))


check_gradient_dconv()
