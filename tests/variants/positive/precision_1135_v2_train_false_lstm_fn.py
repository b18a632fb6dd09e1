# source: variant of 1135_lstm_eval_mode_backward_cuda.py
# framework: torch
# family: F
# kind: other-rnn-backward-in-eval
# pitfall: a saliency helper switches the LSTM classifier to inference with model.train(False) and then calls backward to get input gradients; on CUDA cuDNN raises "cudnn RNN backward can only be called in training mode"
# expect: line 29 — backward through the LSTM that ran with model.train(False)
# checked: parse only (cuDNN-specific; the CPU kernels accept the backward)
import torch
import torch.nn as nn

device = torch.device("cuda")


class LSTMClassifier(nn.Module):
    def __init__(self, n_in=4, hidden=16, n_out=3):
        super().__init__()
        self.lstm = nn.LSTM(n_in, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_out)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return self.fc(out[:, -1])


def saliency(model, x, label):
    model.train(False)
    x = x.clone().requires_grad_(True)
    score = model(x)[0, label]
    score.backward()
    return x.grad.abs()


model = LSTMClassifier().to(device)
print(saliency(model, torch.randn(1, 12, 4, device=device), 1))
