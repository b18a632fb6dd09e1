# source: https://github.com/wenet-e2e/wekws/pull/73
# framework: torch
# family: D
# kind: missing-zero-grad
# negative: the merged fix (after review): optim.zero_grad() is called right before loss.backward()
# mimics: positive/1017_wekws_executor_no_zero_grad.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_


def criterion(loss_type, logits, target, lengths, min_duration=0):
    loss = nn.functional.binary_cross_entropy_with_logits(logits.max(dim=1)[0].squeeze(-1), target.float())
    acc = ((logits.max(dim=1)[0].squeeze(-1) > 0).long() == target).float().mean()
    return loss, acc


class Executor:
    def __init__(self):
        self.step = 0

    def train(self, model, optim, data_loader, device, writer, args):
        ''' Train one epoch
        '''
        model.train()
        clip = args.get('grad_clip', 50.0)
        log_interval = args.get('log_interval', 10)
        epoch = args.get('epoch', 0)
        min_duration = args.get('min_duration', 0)

        for batch_idx, batch in enumerate(data_loader):
            key, feats, target, feats_lengths = batch
            feats = feats.to(device)
            target = target.to(device)
            feats_lengths = feats_lengths.to(device)
            num_utts = feats_lengths.size(0)
            if num_utts == 0:
                continue
            logits = model(feats)
            loss_type = args.get('criterion', 'max_pooling')
            loss, acc = criterion(loss_type, logits, target, feats_lengths, min_duration=min_duration)
            optim.zero_grad()
            loss.backward()
            grad_norm = clip_grad_norm_(model.parameters(), clip)
            if torch.isfinite(grad_norm):
                optim.step()
            self.step += 1


model = nn.Linear(40, 1)
optim = torch.optim.Adam(model.parameters(), lr=1e-3)
data_loader = [(['u1', 'u2'], torch.randn(2, 50, 40), torch.tensor([0, 1]), torch.tensor([50, 50])) for _ in range(3)]
Executor().train(model, optim, data_loader, torch.device('cpu'), None, {})
