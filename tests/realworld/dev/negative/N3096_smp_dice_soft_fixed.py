# source: https://github.com/qubvel-org/segmentation_models.pytorch/pull/611
# framework: torch
# family: B
# kind: nondiff-op-on-loss-path
# pitfall: Upstream smp DiceLoss (the PR was closed) always calls f_score with threshold=None, i.e. a soft Dice on sigmoid probabilities, so gradients reach the model; `_threshold` is only used with a threshold by the metrics.
# expect: no finding
# checked: ran, fix works (backward succeeds, conv weight/bias grads are non-zero)
import torch
import torch.nn as nn


# --- segmentation_models_pytorch/utils/functional.py (verbatim) ---
def _take_channels(*xs, ignore_channels=None):
    if ignore_channels is None:
        return xs
    else:
        channels = [channel for channel in range(xs[0].shape[1]) if channel not in ignore_channels]
        xs = [torch.index_select(x, dim=1, index=torch.tensor(channels).to(x.device)) for x in xs]
        return xs


def _threshold(x, threshold=None):
    if threshold is not None:
        return (x > threshold).type(x.dtype)
    else:
        return x


def f_score(pr, gt, beta=1, eps=1e-7, threshold=None, ignore_channels=None):
    pr = _threshold(pr, threshold=threshold)
    pr, gt = _take_channels(pr, gt, ignore_channels=ignore_channels)

    tp = torch.sum(gt * pr)
    fp = torch.sum(pr) - tp
    fn = torch.sum(gt) - tp

    score = ((1 + beta**2) * tp + eps) / ((1 + beta**2) * tp + beta**2 * fn + fp + eps)

    return score


# --- stubs for smp base classes ---
class Loss(nn.Module):
    pass


Activation = lambda name: nn.Sigmoid() if name == "sigmoid" else nn.Identity()


# --- segmentation_models_pytorch/utils/losses.py (verbatim) ---
class DiceLoss(Loss):
    def __init__(self, eps=1.0, beta=1.0, activation=None, ignore_channels=None, **kwargs):
        super().__init__(**kwargs)
        self.eps = eps
        self.beta = beta
        self.activation = Activation(activation)
        self.ignore_channels = ignore_channels

    def forward(self, y_pr, y_gt):
        y_pr = self.activation(y_pr)
        return 1 - f_score(
            y_pr,
            y_gt,
            beta=self.beta,
            eps=self.eps,
            threshold=None,
            ignore_channels=self.ignore_channels,
        )


if __name__ == "__main__":
    model = nn.Conv2d(3, 1, 3, padding=1)
    criterion = DiceLoss(activation="sigmoid")
    x = torch.randn(2, 3, 16, 16)
    y = (torch.rand(2, 1, 16, 16) > 0.5).float()
    loss = criterion(model(x), y)
    loss.backward()
    print([p.grad.abs().sum().item() for p in model.parameters()])
