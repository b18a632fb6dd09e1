# source: https://github.com/snakers4/silero-vad/pull/699
# framework: torch
# family: C
# kind: missing-zero-grad
# pitfall: The fine-tuning train() loop calls loss.backward() and optimizer.step() every batch but never zero_grad(), so decoder gradients accumulate across batches.
# expect: line 94 — optimizer.step() in the batch loop with no zero_grad
# checked: ran, reproduces (grad used by 2nd step == 2x single-step grad)
import torch.nn as nn
import torch
import gc

tqdm = lambda it, total=None: it  # stub for `from tqdm import tqdm`


class VADDecoderRNNJIT(nn.Module):

    def __init__(self):
        super(VADDecoderRNNJIT, self).__init__()

        self.rnn = nn.LSTMCell(128, 128)
        self.decoder = nn.Sequential(nn.Dropout(0.1),
                                     nn.ReLU(),
                                     nn.Conv1d(128, 1, kernel_size=1),
                                     nn.Sigmoid())

    def forward(self, x, state=torch.zeros(0)):
        x = x.squeeze(-1)
        if len(state):
            h, c = self.rnn(x, (state[0], state[1]))
        else:
            h, c = self.rnn(x)

        x = h.unsqueeze(-1).float()
        state = torch.stack([h, c])
        x = self.decoder(x)
        return x, state


class AverageMeter(object):
    """Computes and stores the average and current value"""

    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count


def train(config,
          loader,
          jit_model,
          decoder,
          criterion,
          optimizer,
          device):

    losses = AverageMeter()
    decoder.train()

    context_size = 32 if config.tune_8k else 64
    num_samples = 256 if config.tune_8k else 512
    stft_layer = jit_model._model_8k.stft if config.tune_8k else jit_model._model.stft
    encoder_layer = jit_model._model_8k.encoder if config.tune_8k else jit_model._model.encoder

    with torch.enable_grad():
        for _, (x, targets, masks) in tqdm(enumerate(loader), total=len(loader)):
            targets = targets.to(device)
            x = x.to(device)
            masks = masks.to(device)
            x = torch.nn.functional.pad(x, (context_size, 0))

            outs = []
            state = torch.zeros(0)
            for i in range(context_size, x.shape[1], num_samples):
                input_ = x[:, i-context_size:i+num_samples]
                out = stft_layer(input_)
                out = encoder_layer(out)
                out, state = decoder(out, state)
                outs.append(out)
            stacked = torch.cat(outs, dim=2).squeeze(1)

            loss = criterion(stacked, targets)
            loss = (loss * masks).mean()
            loss.backward()
            optimizer.step()
            losses.update(loss.item(), masks.numel())

    torch.cuda.empty_cache()
    gc.collect()

    return losses.avg


if __name__ == "__main__":
    import argparse
    from types import SimpleNamespace
    # stub for the frozen silero JIT model (stft + encoder)
    enc = nn.Linear(288, 128).requires_grad_(False)
    jit_model = SimpleNamespace(_model_8k=SimpleNamespace(stft=lambda x: x, encoder=lambda x: enc(x).unsqueeze(-1)))
    decoder = VADDecoderRNNJIT().eval()
    decoder.decoder[0].p = 0.0  # make the two identical batches give identical grads
    optimizer = torch.optim.SGD(decoder.parameters(), lr=0.0)
    seen = []
    decoder.decoder[2].weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    batch = (torch.randn(2, 512), torch.randint(0, 2, (2, 2)).float(), torch.ones(2, 2))
    train(argparse.Namespace(tune_8k=True), [batch, batch], jit_model, decoder,
          nn.BCELoss(reduction='none'), optimizer, 'cpu')
    print("grad used by 2nd step == 2 x single-step grad (accumulated):", torch.allclose(seen[1], 2 * seen[0]))
