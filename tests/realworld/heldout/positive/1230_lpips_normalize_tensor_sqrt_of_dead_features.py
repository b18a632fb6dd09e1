# source: https://github.com/richzhang/PerceptualSimilarity/issues/69
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: normalize_tensor divides each feature vector by torch.sqrt(torch.sum(in_feat**2, dim=1)) and adds eps only outside the square root; where all channels of a (post-ReLU) feature map are 0 the square root is taken at exactly 0 and backpropagation fails with "Function 'SqrtBackward' returned nan values"
# expect: line 14 — torch.sqrt of a channel sum of squares that is 0 at dead positions; the reporter asks to move the epsilon under the square root
# checked: ran, reproduces under anomaly detection, as in the report (RuntimeError: Function 'SqrtBackward0' returned nan values in its 0th output; without it the ReLU below masks the NaN at exactly dead positions, and near-dead ones get huge gradients); lpips/__init__.py normalize_tensor and the layer loop of LPIPS.forward (non-linear, non-spatial branch) at cbbf945, with a one-layer ReLU feature net whose bias kills one region

import torch
import torch.nn as nn


def normalize_tensor(in_feat,eps=1e-10):
    norm_factor = torch.sqrt(torch.sum(in_feat**2,dim=1,keepdim=True))
    return in_feat/(norm_factor+eps)


def spatial_average(in_tens, keepdim=True):
    return in_tens.mean([2,3],keepdim=keepdim)


class LPIPS(nn.Module):
    def __init__(self):
        super(LPIPS, self).__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 4, 1), nn.ReLU())
        self.L = 1

    def forward(self, in0, in1):
        outs0, outs1 = [self.net(in0)], [self.net(in1)]
        feats0, feats1, diffs = {}, {}, {}

        for kk in range(self.L):
            feats0[kk], feats1[kk] = normalize_tensor(outs0[kk]), normalize_tensor(outs1[kk])
            diffs[kk] = (feats0[kk]-feats1[kk])**2

        res = [spatial_average(diffs[kk].sum(dim=1,keepdim=True), keepdim=True) for kk in range(self.L)]

        val = res[0]
        for l in range(1,self.L):
            val += res[l]
        return val


loss_fn = LPIPS()
with torch.no_grad():
    loss_fn.net[0].weight.fill_(1.0)
    loss_fn.net[0].bias.fill_(0.0)
generated = torch.rand(1, 3, 8, 8)
generated[..., :4, :4] = -1.0  # every channel of the feature map is 0 here
generated.requires_grad_(True)
target = torch.rand(1, 3, 8, 8)
with torch.autograd.detect_anomaly():
    loss_fn(generated, target).mean().backward()
