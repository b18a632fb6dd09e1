# source: variant of 3071_clip_after_step_client_optim.py
# framework: torch
# family: C
# kind: misplaced-grad-clip
# pitfall: local-training function (model and loss passed in, optimizer built by a factory) clips after optimizer.step() and scheduler.step()
# expect: line 27 — clip_grad_norm_ after optimizer.step()
# checked: ran, reproduces (with SGD lr=1 the parameter update is far larger than max_norm: clipping had no effect on the step)
import torch


def make_optimizer(name, params, **kwargs):
    return getattr(torch.optim, name)(params, **kwargs)


def local_update(model, loss_fn, dataloader, cfg):
    optimizer = make_optimizer(cfg["optim"], model.parameters(), **cfg["optim_args"])
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
    for epoch in range(cfg["epochs"]):
        for data, target in dataloader:
            optimizer.zero_grad()
            output = model(data)
            loss = loss_fn(output, target)
            loss.backward()
            optimizer.step()
            scheduler.step()
            if cfg["clip_grad"]:
                torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["clip_value"], norm_type=2)
    return model.state_dict()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 3)
    before = [p.detach().clone() for p in model.parameters()]
    data = [(torch.randn(16, 8) * 10, torch.randint(0, 3, (16,)))]
    local_update(model, torch.nn.CrossEntropyLoss(), data,
                 dict(optim="SGD", optim_args={"lr": 1.0}, epochs=1, clip_grad=True, clip_value=0.01))
    step = torch.sqrt(sum(((p.detach() - b) ** 2).sum() for p, b in zip(model.parameters(), before)))
    print("update norm:", step.item(), "(<=0.01 if clipped first)")
