# source: https://github.com/mrdbourke/pytorch-deep-learning/issues/583
# framework: torch
# family: C
# kind: history-kept-across-iterations
# pitfall: train_step adds the loss tensor itself to train_loss (the course code uses loss.item()), and train() appends that graph-carrying average to results["train_loss"] every epoch
# expect: line 22 — train_loss += loss accumulates the graph of every batch; the results dict then keeps those graphs alive (and plotting fails on a tensor that requires grad)
# checked: ran, reproduces (results["train_loss"] holds tensors with grad_fn)

import torch
from torch import nn


def train_step(model: torch.nn.Module,
               dataloader,
               loss_fn: torch.nn.Module,
               optimizer: torch.optim.Optimizer):
    model.train()
    train_loss, train_acc = 0, 0
    for batch, (X, y) in enumerate(dataloader):
        y_pred = model(X)
        loss = loss_fn(y_pred, y)
        train_loss += loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        y_pred_class = torch.argmax(torch.softmax(y_pred, dim=1), dim=1)
        train_acc += (y_pred_class == y).sum().item() / len(y_pred)
    train_loss = train_loss / len(dataloader)
    train_acc = train_acc / len(dataloader)
    return train_loss, train_acc


def train(model, train_dataloader, optimizer, loss_fn=nn.CrossEntropyLoss(), epochs=5):
    results = {"train_loss": [], "train_acc": []}
    for epoch in range(epochs):
        train_loss, train_acc = train_step(model=model, dataloader=train_dataloader, loss_fn=loss_fn, optimizer=optimizer)
        results["train_loss"].append(train_loss)
        results["train_acc"].append(train_acc)
    return results


model_0 = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 3))
train_dataloader = [(torch.randn(4, 3, 8, 8), torch.randint(0, 3, (4,))) for _ in range(3)]
model_0_results = train(model_0, train_dataloader, torch.optim.Adam(model_0.parameters(), lr=0.001), epochs=2)
