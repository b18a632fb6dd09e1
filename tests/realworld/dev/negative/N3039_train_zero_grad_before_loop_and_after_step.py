# source: https://github.com/salesforce/corr_based_prediction/issues/1
# framework: torch
# family: C
# kind: missing-zero-grad
# pitfall: Reported as "zero_grad outside the training stage" but correct: zero_grad() once before the loop plus zero_grad() right after every optimizer.step().
# expect: no finding
# checked: ran, trains normally
import argparse
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

tqdm = argparse.Namespace(tqdm=lambda it, total=None: it)  # stub for `import tqdm`
use_cuda = False
args = argparse.Namespace(beta=0.1, lr=1e-3, wdecay=0.0)


class MLP(nn.Module):  # stub for models.py
    def __init__(self):
        super().__init__()
        self.hid = nn.Linear(10, 16)
        self.out = nn.Linear(16, 3)

    def forward(self, x, ret_hid=False, train=True):
        h = torch.relu(self.hid(x))
        return (self.out(h), h) if ret_hid else self.out(h)


def correlation_reg(hid, targets):  # stub for the paper's correlation regularizer
    return hid.pow(2).mean()


model = MLP()
params = list(model.parameters())
trainloader = torch.utils.data.DataLoader(
    torch.utils.data.TensorDataset(torch.randn(32, 10), torch.randint(0, 3, (32,))), batch_size=8)
criterion = nn.CrossEntropyLoss()


def train(epoch):
    global trainloader, optimizer, args, model, best_loss
    model.train()
    correct = 0
    total = 0
    total_loss, tot_regularization_loss = 0, 0


    optimizer.zero_grad()
    tot_iters = len(trainloader)
    for batch_idx in tqdm.tqdm(range(tot_iters), total=tot_iters):
        inputs, targets = next(iter(trainloader)) 
        if use_cuda:
            inputs, targets = inputs.cuda(), targets.cuda() 

        inputs = Variable(inputs)

        outputs, hid_repr = (model(inputs, ret_hid=True))

        loss = criterion(outputs, targets)

        regularization_loss = 0
        regularization_loss = correlation_reg(hid_repr, targets.cpu().numpy())
        tot_regularization_loss = tot_regularization_loss + regularization_loss.data

        total_loss_ = loss + args.beta* regularization_loss
        total_loss_.backward() 

        total_loss += loss.data.cpu()
        _, predicted = torch.max(nn.Softmax(dim=1)(outputs).data, 1)
        total += targets.size(0)
        correct += predicted.eq(targets.data).cpu().sum()
        

        # nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        optimizer.step()
        optimizer.zero_grad()


        
    acc = 100.*correct/total
    return total_loss/(batch_idx+1), acc, tot_regularization_loss/(batch_idx+1)


optimizer = torch.optim.Adam(params, lr=args.lr, weight_decay=args.wdecay)

best_acc, best_loss =0, np.inf
for epoch in range(2):
    train_loss, train_acc, reg_loss = train(epoch)
    print(epoch, float(train_loss), float(train_acc), float(reg_loss))
