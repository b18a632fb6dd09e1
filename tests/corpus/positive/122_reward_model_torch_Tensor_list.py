# source: synthetic
# family: A
# pitfall: pairwise reward-model loss builds the score vectors with torch.Tensor([...]) from a list comprehension of per-response scalar scores
# expect: line 21 — the legacy torch.Tensor constructor copies the values of the score tensors: the Bradley-Terry loss has no path to the reward model

import torch
import torch.nn as nn
import torch.nn.functional as F

reward_model = nn.Sequential(nn.EmbeddingBag(5000, 64), nn.Linear(64, 1))
opt = torch.optim.AdamW(reward_model.parameters(), lr=1e-5)


def score(tokens):
    return reward_model(tokens.unsqueeze(0)).squeeze()


chosen = [torch.randint(0, 5000, (int(n),)) for n in torch.randint(5, 30, (8,))]
rejected = [torch.randint(0, 5000, (int(n),)) for n in torch.randint(5, 30, (8,))]

r_chosen = torch.Tensor([score(c) for c in chosen])
r_rejected = torch.Tensor([score(r) for r in rejected])
loss = -F.logsigmoid(r_chosen - r_rejected).mean()
opt.zero_grad()
loss.backward()
opt.step()
