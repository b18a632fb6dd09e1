# source: https://github.com/catalyst-team/catalyst/issues/1319
# framework: torch
# family: D
# kind: misplaced-grad-clip
# pitfall: OptimizerCallback.on_batch_end calls runner.engine.backward_loss (with the AMP engine: scaler.scale(loss).backward()) and then applies grad_clip_fn to model.parameters() directly, i.e. to gradients that are still multiplied by the loss scale; the engine's optimizer_step unscales only afterwards
# expect: line 52 — the gradient clipping runs on scaled gradients; the report (labelled bug) asks for the gradients to be unscaled (scaler.unscale_(optimizer)) before clipping
# checked: parse only (needs CUDA for torch.cuda.amp); the OptimizerCallback.on_batch_end body quoted in the issue (Catalyst 21.09) verbatim, with the AMP engine's backward/step methods and a minimal runner

from functools import partial

import torch
import torch.nn as nn


class AMPEngine:
    def __init__(self):
        self.scaler = torch.cuda.amp.GradScaler()

    def backward_loss(self, loss, model, optimizer):
        self.scaler.scale(loss).backward()

    def optimizer_step(self, loss, model, optimizer):
        self.scaler.step(optimizer)
        self.scaler.update()

    def zero_grad(self, loss, model, optimizer):
        model.zero_grad()


class OptimizerCallback:
    def __init__(self, model, optimizer, metric_key="loss", accumulation_steps=1, grad_clip_fn=None):
        self.model = model
        self.optimizer = optimizer
        self.metric_key = metric_key
        self.accumulation_steps = accumulation_steps
        self.grad_clip_fn = grad_clip_fn
        self._accumulation_counter = 0

    def _get_lr_momentum_stats(self):
        return {"lr": self.optimizer.param_groups[0]["lr"]}

    def on_batch_end(self, runner: "IRunner"):
        """Event handler."""
        if runner.is_train_loader:
            self._accumulation_counter += 1
            need_gradient_step = self._accumulation_counter % self.accumulation_steps == 0

            loss = runner.batch_metrics[self.metric_key]
            runner.engine.backward_loss(loss, self.model, self.optimizer)

            if self.grad_clip_fn is not None:
                self.grad_clip_fn(self.model.parameters())

            if need_gradient_step:
                runner.engine.optimizer_step(loss, self.model, self.optimizer)
                runner.engine.zero_grad(loss, self.model, self.optimizer)

        runner.batch_metrics.update(self._get_lr_momentum_stats())


class Runner:
    def __init__(self, model, engine):
        self.model = model.cuda()
        self.engine = engine
        self.is_train_loader = True
        self.batch_metrics = {}

    def handle_batch(self, batch):
        x, y = batch
        with torch.cuda.amp.autocast():
            self.batch_metrics["loss"] = nn.functional.cross_entropy(self.model(x.cuda()), y.cuda())


model = nn.Linear(16, 4)
runner = Runner(model, AMPEngine())
callback = OptimizerCallback(model, torch.optim.Adam(model.parameters()),
                             grad_clip_fn=partial(nn.utils.clip_grad_norm_, max_norm=1.0))
for batch in [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(3)]:
    runner.handle_batch(batch)
    callback.on_batch_end(runner)
