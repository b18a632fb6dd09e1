# source: https://github.com/pytorch/pytorch/issues/74158
# framework: torch
# family: C
# kind: other-leaf-rebound-in-manual-update
# negative: the variant the reporter's own comment says works: update the leaf in place with w -= lr * w.grad under no_grad, so w stays the same requires-grad tensor
# mimics: positive/1159_linreg_manual_update_rebinds_w.py
# expect: no finding
# checked: ran, no error
# Linear regression using PyTorch

import torch

X = torch.tensor([1, 2, 3, 4], dtype=torch.float32) 
Y = torch.tensor([2, 4, 6, 8], dtype=torch.float32)

w = torch.tensor(0.0, dtype=torch.float32, requires_grad=True)

# Prediction
def predict(x):
        return w * x

# Loss
def loss1(y, y_pred):
        return ((y_pred - y)**2).mean()

# Training
epochs = 100
lr = 0.01
for epoch in range(1, epochs+1):
    
    y_pred = predict(X)
    l = loss1(Y, y_pred)
    l.backward()
    
    with torch.no_grad():
        # If the following line changed to w -= lr * w.grad; it will work
        w -= lr * w.grad
    
    w.grad.zero_()
    
    if epoch % 20 == 0:
        print(f"Epoch {epoch}: w = {w.item():.3f}, loss = {l.item():.8f}")
