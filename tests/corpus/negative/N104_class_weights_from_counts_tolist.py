# source: https://pytorch.org/docs/stable/generated/torch.nn.CrossEntropyLoss.html
# family: A
# negative: class weights come from label counts (.tolist() of a data tensor) packed with torch.tensor(list of Python floats); no model output is converted
# mimics: .tolist() + torch.tensor([...]) near a loss
# expect: no finding

import torch
import torch.nn as nn

labels_all = torch.randint(0, 4, (1000,))
counts = torch.bincount(labels_all, minlength=4)
weights = torch.tensor([len(labels_all) / (4 * c) for c in counts.tolist()], dtype=torch.float32)

model = nn.Linear(12, 4)
criterion = nn.CrossEntropyLoss(weight=weights)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for i in range(0, 1000, 100):
    x = torch.randn(100, 12)
    loss = criterion(model(x), labels_all[i:i + 100])
    opt.zero_grad()
    loss.backward()
    opt.step()
