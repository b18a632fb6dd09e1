# source: https://github.com/ZiqiaoPeng/DualTalk/issues/9
# framework: torch
# family: C
# kind: misplaced-zero-grad
# pitfall: Fix suggested in the issue: zero_grad at the start of each accumulation window, divide the loss, step at the end of the window.
# expect: no finding
# checked: ran, each step uses mean(A,B)
import argparse
import numpy as np
import torch
import torch.nn as nn

tqdm = lambda it, total=None: it  # stub for tqdm


class Model(nn.Module):  # stub for the DualTalk model; forward returns the loss
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, audio, template, vertice, one_hot, criterion, teacher_forcing=False):
        return criterion(self.fc(audio) + template, vertice)


def trainer(args, train_loader, dev_loader, model, optimizer, criterion, epoch=100):
    iteration = 0
    for e in range(epoch+1):
        loss_log = []
        # train
        model.train()
        pbar = tqdm(enumerate(train_loader),total=len(train_loader))
        optimizer.zero_grad()

        for i, (audio, vertice, template, one_hot, file_name) in pbar:
            iteration += 1
            loss = model(audio, template, vertice, one_hot, criterion, teacher_forcing=False)
            if i % args.gradient_accumulation_steps == 0:
                optimizer.zero_grad()

            loss = loss / args.gradient_accumulation_steps
            loss.backward()
            loss_log.append(loss.item())

            if (i + 1) % args.gradient_accumulation_steps == 0 or (i + 1 == len(train_loader)):
                optimizer.step()

        print("(Epoch {}, iteration {}) TRAIN LOSS:{:.7f}".format((e+1), iteration, np.mean(loss_log)))
    return model


if __name__ == "__main__":
    model = Model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # lr=0: weights fixed, so per-batch grads are fixed
    crit = nn.MSELoss()
    A = (torch.randn(2, 8), torch.randn(2, 8), torch.randn(2, 8), torch.zeros(2, 1), "a")
    B = (torch.randn(2, 8), torch.randn(2, 8), torch.randn(2, 8), torch.zeros(2, 1), "b")
    g = {}
    for name, (au, ve, te, oh, _) in (("A", A), ("B", B)):
        model.zero_grad()
        model(au, te, ve, oh, crit).backward()
        g[name] = model.fc.weight.grad.clone()
    model.zero_grad()
    used = []
    def which(opt, a, k):
        gr = model.fc.weight.grad
        used.append("A only" if torch.allclose(gr, g["A"]) else "B only" if torch.allclose(gr, g["B"])
                    else "mean(A,B)" if torch.allclose(gr, (g["A"] + g["B"]) / 2) else "other")
    optimizer.register_step_pre_hook(which)
    trainer(argparse.Namespace(gradient_accumulation_steps=2), [A, B, A, B], None, model, optimizer, crit, epoch=0)
    print("batches contributing to each optimizer.step():", used)
