# source: https://github.com/zoogzog/chexnet/issues/12
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: the validation epoch adds every batch's loss tensor to losstensorMean (passed to the LR scheduler); volatile=True no longer disables autograd, so the graphs of the whole validation set stay alive and the run goes out of memory at the end of the epoch
# expect: line 25 — losstensorMean += losstensor keeps every validation batch's graph (volatile is ignored since 0.4); accumulate .item() or run under torch.no_grad()
# checked: ran, reproduces (losstensorMean carries a grad_fn)

import torch
import torch.nn as nn


def epochVal(model, dataLoader, optimizer, scheduler, epochMax, classCount, loss):
    model.eval()
    lossVal = 0
    lossValNorm = 0
    losstensorMean = 0

    for i, (input, target) in enumerate(dataLoader):
        varInput = torch.autograd.Variable(input, volatile=True)
        varTarget = torch.autograd.Variable(target, volatile=True)
        varOutput = model(varInput)

        losstensor = loss(varOutput, varTarget)
        losstensorMean += losstensor

        lossVal += losstensor.item()
        lossValNorm += 1

    outLoss = lossVal / lossValNorm
    losstensorMean = losstensorMean / lossValNorm

    return outLoss, losstensorMean


model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 14), nn.Sigmoid())
dataLoader = [(torch.rand(2, 3, 16, 16), torch.randint(0, 2, (2, 14)).float()) for _ in range(3)]
lossVal, losstensor = epochVal(model, dataLoader, None, None, 1, 14, nn.BCELoss())
