# source: https://scikit-learn.org/stable/modules/generated/sklearn.metrics.roc_auc_score.html
# family: A
# negative: probabilities are converted to NumPy for sklearn's roc_auc_score only in a no_grad evaluation function; training uses a torch loss
# mimics: .detach().cpu().numpy() + sklearn metric on model outputs
# expect: no finding

import numpy as np
import torch
import torch.nn as nn
from sklearn.metrics import roc_auc_score

model = nn.Sequential(nn.Linear(30, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()


@torch.no_grad()
def evaluate(x, y):
    model.eval()
    probs = torch.sigmoid(model(x)).squeeze(-1).cpu().numpy()
    return roc_auc_score(y.numpy(), probs), float(np.mean((probs > 0.5) == y.numpy()))


for epoch in range(10):
    model.train()
    x, y = torch.randn(256, 30), torch.randint(0, 2, (256,)).float()
    loss = bce(model(x).squeeze(-1), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(epoch, evaluate(torch.randn(128, 30), torch.randint(0, 2, (128,)).float()))
