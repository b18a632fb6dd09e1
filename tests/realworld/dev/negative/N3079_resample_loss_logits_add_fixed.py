# source: https://github.com/wutong16/DistributionBalancedLoss/issues/20
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: out-of-place rewrite (not from the thread, which has no answer): `logits = logits + self.neg_bias` leaves the caller's saved sigmoid output untouched.
# expect: no finding
# checked: ran, clean (prints the loss)
import torch
import torch.nn as nn
import torch.nn.functional as F
import numpy as np


def binary_cross_entropy(pred, label, weight=None, reduction='mean', avg_factor=None):
    # stub of mllt cross_entropy_loss.binary_cross_entropy (element-wise BCE-with-logits + reduction)
    loss = F.binary_cross_entropy_with_logits(pred, label.float(), weight, reduction='none')
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    return loss


class ResampleLoss(nn.Module):

    def __init__(self,
                 use_sigmoid=False,
                 reduction='mean',
                 loss_weight=1.0,
                 partial=False,
                 focal=dict(
                     focal=True,
                     balance_param=2.0,
                     gamma=2,
                 ),
                 CB_loss=dict(
                     CB_beta=0.9,
                     CB_mode='average_w'  # 'by_class', 'average_n', 'average_w', 'min_n'
                 ),
                 map_param=dict(
                     alpha=10.0,
                     beta=0.2,
                     gamma=0.1
                 ),
                 logit_reg=dict(
                     neg_scale=5.0,
                     neg_bias=0.1
                 ),
                 reweight_func=None,  # None, 'inv', 'sqrt_inv', 'rebalance', 'CB'
                 weight_norm=None, # None, 'by_instance', 'by_batch'
                 class_freq=None, neg_class_freq=None):
        super(ResampleLoss, self).__init__()

        self.use_sigmoid = use_sigmoid
        self.partial = partial
        self.loss_weight = loss_weight
        self.reduction = reduction
        self.cls_criterion = binary_cross_entropy

        # reweighting function
        self.reweight_func = reweight_func

        # normalization (optional)
        self.weight_norm = weight_norm

        # focal loss params
        self.focal = focal['focal']
        self.gamma = focal['gamma']
        self.balance_param = focal['balance_param']

        # mapping function params
        self.map_alpha = map_param['alpha']
        self.map_beta = map_param['beta']
        self.map_gamma = map_param['gamma']

        # class_freq.pkl replaced by arguments
        self.class_freq = class_freq
        self.neg_class_freq = neg_class_freq
        self.num_classes = self.class_freq.shape[0]
        self.train_num = self.class_freq[0] + self.neg_class_freq[0]
        # regularization params
        self.logit_reg = logit_reg
        self.neg_scale = logit_reg[
            'neg_scale'] if 'neg_scale' in logit_reg else 1.0
        neg_bias = logit_reg['neg_bias'] if 'neg_bias' in logit_reg else 0.0
        self.neg_bias = - torch.log(
            self.train_num / self.class_freq - 1) * neg_bias / self.neg_scale

        self.freq_inv = torch.ones(self.class_freq.shape) / self.class_freq
        self.propotion_inv = self.train_num / self.class_freq

    def forward(self,
                cls_score,
                label,
                weight=None,
                avg_factor=None,
                reduction_override=None,
                **kwargs):

        reduction = (
            reduction_override if reduction_override else self.reduction)

        weight = self.reweight_functions(label)

        cls_score, weight = self.logit_reg_functions(label.float(), cls_score, weight)

        if self.focal:
            logpt = - self.cls_criterion(
                cls_score.clone(), label, weight=None, reduction='none',
                avg_factor=avg_factor)
            # pt is sigmoid(logit) for pos or sigmoid(-logit) for neg
            pt = torch.exp(logpt)
            loss = self.cls_criterion(
                cls_score, label.float(), weight=weight, reduction='none')
            loss = ((1 - pt) ** self.gamma) * loss
            loss = self.balance_param * loss
        else:
            loss = self.cls_criterion(cls_score, label.float(), weight,
                                      reduction=reduction)

        loss = self.loss_weight * loss
        return loss

    def reweight_functions(self, label):
        if self.reweight_func is None:
            return None
        weight = self.rebalance_weight(label.float())
        return weight

    def logit_reg_functions(self, labels, logits, weight=None):
        if not self.logit_reg:
            return logits, weight
        if 'neg_bias' in self.logit_reg:
            logits = logits + self.neg_bias
        if 'neg_scale' in self.logit_reg:
            logits = logits * (1 - labels) * self.neg_scale  + logits * labels
            weight = weight / self.neg_scale * (1 - labels) + weight * labels
        return logits, weight

    def rebalance_weight(self, gt_labels):
        repeat_rate = torch.sum( gt_labels.float() * self.freq_inv, dim=1, keepdim=True)
        pos_weight = self.freq_inv.clone().detach().unsqueeze(0) / repeat_rate
        # pos and neg are equally treated
        weight = torch.sigmoid(self.map_beta * (pos_weight - self.map_gamma)) + self.map_alpha
        return weight


# driver: the reporter's model (not shown in the issue) ends in a sigmoid -- the error names SigmoidBackward0 [64, 109]
torch.manual_seed(0)
num_classes = 109
class_freq = torch.randint(5, 50, (num_classes,)).float()
neg_class_freq = 1000 - class_freq
model = nn.Sequential(nn.Linear(32, num_classes), nn.Sigmoid())
criterion = ResampleLoss(use_sigmoid=True, reweight_func='rebalance', class_freq=class_freq,
                         neg_class_freq=neg_class_freq)
x = torch.randn(64, 32)
labels = (torch.rand(64, num_classes) < 0.1).float()
labels[:, 0] = 1
outputs = model(x)
loss = criterion(outputs, labels).mean()
loss.backward()
print(loss.item())
