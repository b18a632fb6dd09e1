# source: https://github.com/pytorch/pytorch/issues/1339
# framework: torch
# family: E
# kind: nondiff-op-on-loss-path
# pitfall: the output of a first module is reduced with torch.max(y_p, 1)[1] (the argmax indices) and fed to a second module, so no gradient reaches the first module's weights
# expect: line 20 — torch.max(...)[1] returns integer indices with no gradient; first_model's parameters get grad None
# checked: ran, reproduces (first_model grads are None)

import torch
import torch.nn as nn

first_model = nn.Linear(10, 5)
second_model = nn.Embedding(5, 1)
x = torch.randn(4, 10)
target = torch.randn(4, 1)


def main():
    y_p = first_model(x)
    y_p = torch.max(y_p, 1)[1]
    out = second_model(y_p)
    loss = nn.functional.mse_loss(out, target)

    first_model.zero_grad()
    second_model.zero_grad()

    loss.backward()  # retain_variables=True

    for param in second_model.parameters():
        print('data: ', param.data)
        print('grad data: ', param.grad.data)

    for param in first_model.parameters():
        print('data: ', param.data)
        print('grad data: ', param.grad.data)


main()
