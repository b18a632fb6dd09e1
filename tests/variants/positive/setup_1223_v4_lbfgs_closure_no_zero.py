# source: variant of 1223_tennis_court_trainer_no_zero_grad.py
# framework: torch
# family: D
# kind: missing-zero-grad
# pitfall: LBFGS closure recomputes the loss and calls backward but never zero_grad: every closure evaluation (several per step) adds onto the previous gradients
# expect: line 18 — loss.backward() inside the closure accumulates (optimizer.zero_grad() missing in the closure)
# checked: ran, reproduces (3 of 4 closure evaluations leave a .grad different from the true gradient at that point)
import torch
import torch.nn as nn


def fit(model, x, y, steps=2):
    optimizer = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=4)
    criterion = nn.MSELoss()

    def closure():
        loss = criterion(model(x), y)
        loss.backward()
        return loss

    for _ in range(steps):
        optimizer.step(closure)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    x, y = torch.randn(16, 3), torch.randn(16, 1)
    mismatch = []

    def check(p):
        with torch.enable_grad():
            fresh = torch.autograd.grad(nn.MSELoss()(model(x), y), p)[0]
        mismatch.append(not torch.allclose(p.grad, fresh))
    model.weight.register_post_accumulate_grad_hook(check)
    fit(model, x, y, steps=1)
    print("closure calls whose .grad != true gradient:", sum(mismatch), "of", len(mismatch))
