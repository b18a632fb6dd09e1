# source: https://github.com/APPFL/APPFL/issues/197
# framework: torch
# family: C
# kind: misplaced-grad-clip
# pitfall: In the federated client's local-training loop `clip_grad_norm_` runs after `optimizer.step()`, so the weights were already updated with the unclipped gradients (and DP sensitivity assumes clipping that never happened).
# expect: line 72 — `torch.nn.utils.clip_grad_norm_(...)` is called after `optimizer.step()` (clips gradients that were already consumed)
# checked: ran, reproduces: with SGD lr=1 and clip_value=0.01 the parameter update norm is 6.18 (unclipped). Code = src/appfl/algorithm/legacy/client_optimizer.py linked from the issue; checkpoint-saving and DP-noise tail of update() omitted, BaseClient stubbed
import os
import copy
import time
import types
import torch
import numpy as np
from torch.optim import *


# --- minimal stub of appfl's BaseClient (not from the thread) ---
class BaseClient:
    def __init__(self, id, weight, model, loss_fn, dataloader, cfg, outfile, test_dataloader, metric):
        self.id, self.weight, self.model, self.loss_fn = id, weight, model, loss_fn
        self.dataloader, self.cfg, self.outfile = dataloader, cfg, outfile
        self.test_dataloader, self.metric = test_dataloader, metric
        self.round = 0

    def client_log_title(self):
        pass

    def client_log_content(self, *args):
        pass

    def client_validation(self):
        return 0.0, 0.0
# --- end stub ---


class ClientOptim(BaseClient):
    """This client optimizer which perform updates for certain number of epochs in each training round."""
    def __init__(
        self, id, weight, model, loss_fn, dataloader, cfg, outfile, test_dataloader, metric, **kwargs
    ):
        super(ClientOptim, self).__init__(id, weight, model, loss_fn, dataloader, cfg, outfile, test_dataloader, metric)
        self.__dict__.update(kwargs)
        super(ClientOptim, self).client_log_title()

    def update(self):
        self.model.to(self.cfg.device)
        optimizer = eval(self.optim)(self.model.parameters(), **self.optim_args)

        ## Initial evaluation
        if self.cfg.validation == True and self.test_dataloader != None:
            start_time=time.time()
            test_loss, test_accuracy = super(ClientOptim, self).client_validation()
            per_iter_time = time.time() - start_time
            super(ClientOptim, self).client_log_content(0, per_iter_time, 0, 0, test_loss, test_accuracy)

        ## Local training
        for t in range(self.num_local_epochs):
            start_time=time.time()
            train_loss, target_true, target_pred = 0, [], []
            for data, target in self.dataloader:
                data = data.to(self.cfg.device)
                target = target.to(self.cfg.device)
                optimizer.zero_grad()
                output = self.model(data)
                loss = self.loss_fn(output, target)
                loss.backward()
                optimizer.step()
                target_true.append(target.detach().cpu().numpy())
                target_pred.append(output.detach().cpu().numpy())
                train_loss += loss.item()
                if self.clip_grad or self.use_dp:
                    torch.nn.utils.clip_grad_norm_(
                        self.model.parameters(),
                        self.clip_value,
                        norm_type=self.clip_norm,
                    )

            train_loss /= len(self.dataloader)
            target_true, target_pred = np.concatenate(target_true), np.concatenate(target_pred)
            train_accuracy = float(self.metric(target_true, target_pred))

            ## Validation
            if self.cfg.validation == True and self.test_dataloader != None:
                test_loss, test_accuracy = super(ClientOptim, self).client_validation()
            else:
                test_loss, test_accuracy = 0, 0
            per_iter_time = time.time() - start_time
            super(ClientOptim, self).client_log_content(t+1, per_iter_time, train_loss, train_accuracy, 0, 0)

        self.round += 1

        self.primal_state = copy.deepcopy(self.model.state_dict())
        return self.primal_state


# --- driver with random data (not from the thread) ---
if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Linear(8, 3)
    before = [p.detach().clone() for p in model.parameters()]
    data = [(torch.randn(16, 8) * 10, torch.randint(0, 3, (16,)))]
    cfg = types.SimpleNamespace(device="cpu", validation=False, save_model_state_dict=False)
    client = ClientOptim(0, 1.0, model, torch.nn.CrossEntropyLoss(), data, cfg, None, None,
                         lambda t, p: (p.argmax(1) == t).mean(),
                         optim="SGD", optim_args={"lr": 1.0}, num_local_epochs=1,
                         clip_grad=True, use_dp=False, clip_value=0.01, clip_norm=2)
    client.update()
    step = torch.sqrt(sum(((p.detach() - b) ** 2).sum() for p, b in zip(model.parameters(), before)))
    print("update norm with lr=1:", step.item(), "(<= clip_value 0.01 only if clipping happened before step)")
