# source: https://github.com/taesunwhang/UMS-ResSel/issues/3
# framework: torch
# family: C
# kind: misplaced-grad-clip
# pitfall: In the PostTraining trainer (gradient accumulation over a virtual batch) `nn.utils.clip_grad_norm_` is called after `self.optimizer.step()` and right before `zero_grad()`, so clipping never affects an update.
# expect: line 108 — `nn.utils.clip_grad_norm_(self.model.parameters(), ...)` after `self.optimizer.step()`
# checked: ran, reproduces: optimizer.step() consumed a gradient of norm 30.5 although max_gradient_norm=1e-4. Code = post_train/post_training.py (train()) linked from the issue; dataset/model/checkpoint/tensorboard plumbing replaced by stubs
import logging
import types
from datetime import datetime

import torch
from torch import nn, optim


# --- stubs (not from the thread): tqdm, a tiny 3-head "DPT" model and random batches ---
class tqdm:
  def __init__(self, it):
    self.it = it
  def __iter__(self):
    return iter(self.it)
  def set_description(self, s):
    pass

class TinyDPT(nn.Module):
  def __init__(self):
    super().__init__()
    self.lin = nn.Linear(8, 2)
  def forward(self, batch):
    out = self.lin(batch["input_ids"] * 10)
    mlm = nn.functional.cross_entropy(out, batch["labels"])
    return None, mlm, mlm * 0.5
# --- end stubs ---


class PostTraining(object):
  def __init__(self, hparams):
    self.hparams = hparams
    self._logger = logging.getLogger(__name__)

  def _build_dataloader(self):
    self.train_dataset = [None] * 8
    self.train_dataloader = [{"input_ids": torch.randn(4, 8), "labels": torch.randint(0, 2, (4,))} for _ in range(2)]

  def _build_model(self):
    self.model = TinyDPT()
    self.model = self.model.to(self.device)
    self.optimizer = optim.Adam(self.model.parameters(), lr=self.hparams.learning_rate)
    self.iterations = len(self.train_dataset) // self.hparams.virtual_batch_size

  def _setup_training(self):
    self.start_epoch = 1

  def train(self):
    self.device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    self._build_dataloader()
    self._build_model()
    self._setup_training()

    start_time = datetime.now().strftime('%H:%M:%S')
    self._logger.info("Start train model at %s" % start_time)

    train_begin = datetime.utcnow()  # New
    global_iteration_step = 0
    accu_electra_loss, accu_mlm_loss, accu_nsp_loss = 0, 0, 0
    accumulate_batch, accu_count = 0, 0

    for epoch in range(self.start_epoch, self.hparams.num_epochs):
      self.model.train()

      tqdm_batch_iterator = tqdm(self.train_dataloader)
      for batch_idx, batch in enumerate(tqdm_batch_iterator):
        buffer_batch = batch.copy()
        for key in batch:
          buffer_batch[key] = buffer_batch[key].to(self.device)

        losses = self.model(buffer_batch)
        electra_loss, mlm_loss, nsp_loss = losses

        if electra_loss is not None:
          electra_loss = electra_loss.mean()
          accu_electra_loss += electra_loss.item()

        if mlm_loss is not None:
          mlm_loss = mlm_loss.mean()
          accu_mlm_loss += mlm_loss.item()

        if nsp_loss is not None:
          nsp_loss = nsp_loss.mean()
          accu_nsp_loss += nsp_loss.item()

        loss = None
        for task_tensor_loss in [electra_loss, mlm_loss, nsp_loss]:
          if task_tensor_loss is not None:
            loss = loss + task_tensor_loss if loss is not None else task_tensor_loss

        loss.backward()
        accu_count += 1

        # TODO: virtual batch implementation
        accumulate_batch += buffer_batch["input_ids"].shape[0]
        if self.hparams.virtual_batch_size == accumulate_batch \
            or batch_idx == (len(self.train_dataset) // self.hparams.train_batch_size): # last batch

          self.optimizer.step()

          nn.utils.clip_grad_norm_(self.model.parameters(), self.hparams.max_gradient_norm)
          self.optimizer.zero_grad()

          global_iteration_step += 1
          description = "[{}][Epoch: {:3d}][Iter: {:6d}][ELECTRA_Loss: {:6f}][MLM_Loss: {:6f}][NSP_Loss: {:6f}][lr: {:7f}]".format(
            datetime.utcnow() - train_begin,
            epoch,
            global_iteration_step, (accu_electra_loss / accu_count),
            (accu_mlm_loss / accu_count), (accu_nsp_loss / accu_count),
            self.optimizer.param_groups[0]['lr'])
          tqdm_batch_iterator.set_description(description)

          accumulate_batch, accu_count = 0, 0
          accu_electra_loss, accu_mlm_loss, accu_nsp_loss = 0, 0, 0


# --- driver (not from the thread): SGD-like check of what the step consumed ---
if __name__ == "__main__":
  torch.manual_seed(0)
  hp = types.SimpleNamespace(learning_rate=1e-3, virtual_batch_size=8, train_batch_size=4,
                             num_epochs=2, max_gradient_norm=1e-4)
  seen = []
  trainer = PostTraining(hp)
  _orig_step = optim.Adam.step
  def _spy(self, *a, **k):
    seen.append(torch.sqrt(sum((p.grad ** 2).sum() for g in self.param_groups for p in g["params"])).item())
    return _orig_step(self, *a, **k)
  optim.Adam.step = _spy
  trainer.train()
  print("grad norm consumed by optimizer.step():", seen, "max_gradient_norm =", hp.max_gradient_norm)
