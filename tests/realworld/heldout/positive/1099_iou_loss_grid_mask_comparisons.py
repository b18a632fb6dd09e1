# source: https://github.com/pytorch/pytorch/issues/2774
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: a rectangle IoU loss rasterises each predicted box into a 0/1 score map by comparing grid coordinates with the predicted corners; the comparisons have no gradient, so backward runs but every gradient is None and the network learns nothing
# expect: line 25 — the mask is built from >= / <= comparisons of the predicted coordinates: non-differentiable, the loss carries no gradient to the prediction
# checked: ran, reproduces (the loss has no grad_fn)

import torch
import numpy
from torch.autograd import Variable
from torch.nn.modules.loss import _Loss


class IoU_real(_Loss):
    def __init__(self):
        super(_Loss, self).__init__()
        # define the grid
        bounds = (224, 224)
        grid = numpy.mgrid[0:bounds[0], 0:bounds[1]]
        self.grid = numpy.concatenate((grid[0][..., numpy.newaxis], grid[1][..., numpy.newaxis]), axis=-1)
        self.grid = Variable(torch.FloatTensor(self.grid.astype(numpy.float32)))

    def score_map(self, rect):
        inside = (self.grid >= rect[:2]) * (self.grid <= rect[2:])
        return (inside[..., 0] * inside[..., 1]).float()

    def forward(self, input, target):
        m_in = self.score_map(input)
        m_t = self.score_map(target)
        intersection = (m_in * m_t).sum()
        union = (m_in + m_t).clamp(max=1).sum()
        return 1 - intersection / union


net = torch.nn.Linear(8, 4)
pred = net(torch.randn(8)) * 10 + torch.tensor([50., 50., 150., 150.])
target = Variable(torch.FloatTensor([40, 40, 160, 160]))
loss = IoU_real()(pred, target)
print(loss.requires_grad)
