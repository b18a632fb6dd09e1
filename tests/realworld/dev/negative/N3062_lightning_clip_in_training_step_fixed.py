# source: https://github.com/simchowitzlabpublic/nano-world-model/pull/22
# framework: torch
# family: C
# kind: misplaced-grad-clip
# pitfall: fix from the PR: move the clip into the `configure_gradient_clipping` hook, which Lightning calls after backward() and before optimizer.step().
# expect: no finding
# checked: ran with the same stub: every optimizer.step() consumes grad norm 1e-3. Fix written from the PR description (hook body not copied from the diff)
import types
from math import inf

import torch
import torch.nn as nn

try:
    from pytorch_lightning import LightningModule
except ImportError:
    # --- minimal LightningModule + automatic-optimization loop stub (not from the thread) ---
    class LightningModule(nn.Module):
        global_step = 0
        device = torch.device("cpu")

        def log(self, *args, **kwargs):
            pass

    def _fit(module, batches):
        optimizer = module.configure_optimizers()
        for batch_idx, batch in enumerate(batches):
            optimizer.zero_grad(set_to_none=True)            # Lightning 2.x: zero_grad before training_step
            loss = module.training_step(batch, batch_idx)
            loss.backward()
            if hasattr(module, "configure_gradient_clipping"):
                module.configure_gradient_clipping(optimizer, None, None)
            optimizer.step()
            module.global_step += 1
    # --- end stub ---


# --- from src/utils/nanowm_utils.py (a copy of torch.nn.utils.clip_grad_norm_ with a clip_grad switch), abridged ---
def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, clip_grad=True) -> torch.Tensor:
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    params_list = list(parameters)
    grads = [p.grad for p in params_list if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(grads) == 0:
        device = params_list[0].device if params_list else torch.device("cpu")
        return torch.tensor(0., device=device)
    device = grads[0].device
    total_norm = torch.norm(torch.stack([torch.norm(g.detach(), norm_type).to(device) for g in grads]), norm_type)
    if clip_grad:
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
        for g in grads:
            g.detach().mul_(clip_coef_clamped.to(g.device))
    return total_norm
# --- end copy ---


class NanoWMTrainingModule(LightningModule):
    def __init__(self, args):
        super(NanoWMTrainingModule, self).__init__()
        self.args = args
        self.model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 4))   # stub for the world model

    def _vae_encode(self, x):          # stub
        return x

    def configure_optimizers(self):
        return torch.optim.SGD(self.model.parameters(), lr=1.0)

    def training_step(self, batch, batch_idx):
        x = batch["video"].to(self.device)

        with torch.no_grad():
            x = self._vae_encode(x)

        model_kwargs = dict(y=None)
        loss_dict = {"loss": ((self.model(x) * 100 - x) ** 2)}   # stub for self.diffusion.training_losses(...)
        loss = loss_dict["loss"].mean()

        self.log("train_loss", loss, prog_bar=True, logger=True, sync_dist=True, batch_size=x.shape[0])
        return loss

    def configure_gradient_clipping(self, optimizer, gradient_clip_val=None, gradient_clip_algorithm=None):
        if self.global_step < self.args.experiment.training.gradient_clip_start_step:
            gradient_norm = clip_grad_norm_(self.model.parameters(), self.args.experiment.training.gradient_clip_norm, clip_grad=False)
        else:
            gradient_norm = clip_grad_norm_(self.model.parameters(), self.args.experiment.training.gradient_clip_norm, clip_grad=True)
        self.log("gradient_norm", gradient_norm, logger=True, sync_dist=True)


# --- driver (not from the thread) ---
if __name__ == "__main__":
    torch.manual_seed(0)
    training = types.SimpleNamespace(gradient_clip_start_step=0, gradient_clip_norm=1e-3)
    args = types.SimpleNamespace(experiment=types.SimpleNamespace(training=training))
    module = NanoWMTrainingModule(args)
    consumed = []
    _orig = torch.optim.SGD.step
    def _spy(self, *a, **k):
        consumed.append(torch.sqrt(sum((p.grad ** 2).sum() for g in self.param_groups for p in g["params"])).item())
        return _orig(self, *a, **k)
    torch.optim.SGD.step = _spy
    _fit(module, [{"video": torch.randn(8, 4)} for _ in range(3)])
    print("grad norms used by optimizer.step():", consumed, "clip norm =", training.gradient_clip_norm)
