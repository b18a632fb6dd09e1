# source: https://github.com/kaniblu/pytorch-models/pull/8
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: `o` is the raw nn.LSTM output, which the fused RNN kernel (cuDNN / mkldnn) saves for its backward; zeroing padded steps with `masked_fill_` overwrites it.
# expect: line 59 — `o.masked_fill_(...)` in-place on the LSTM output saved by the RNN backward
# checked: ran (torch 2.13 CPU), reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [6, 4, 20]], which is output 0 of MkldnnRnnLayer, is at version 1; expected version 0 instead)
# (reduced: torchmodels.common.Module -> nn.Module, utils.mask inlined; `1 - mask` written as `~mask` because
#  utils.mask returns a bool tensor and bool subtraction is rejected by current torch)
import torch
import torch.nn as nn
import torch.nn.utils.rnn as tr


class utils:
    @staticmethod
    def mask(lens, max_len=None):
        if max_len is None:
            max_len = lens.max().item()
        enum = torch.arange(max_len).long().to(lens)
        return lens.unsqueeze(1) > enum.unsqueeze(0)


class AbstractRNN(nn.Module):

    def __init__(self, input_dim, hidden_dim):
        super(AbstractRNN, self).__init__()
        self.input_dim = input_dim
        self.hidden_dim = hidden_dim

    def forward(self, x, lens=None, h=None):
        raise NotImplementedError()


class BaseRNN(AbstractRNN):

    def __init__(self, *args, dynamic=False, layers=1, dropout=0, **kwargs):
        super(BaseRNN, self).__init__(*args, **kwargs)
        self.dynamic = dynamic
        self.layers = layers
        self.dropout = dropout

    def forward_cell(self, x, h0):
        raise NotImplementedError()

    def forward(self, x, lens=None, h=None):
        batch_size, max_len, _ = x.size()
        mask = None
        if lens is not None:
            mask = utils.mask(lens, max_len)
            x = x.masked_fill(~mask.unsqueeze(-1), 0)
        if self.dynamic:
            x = tr.pack_padded_sequence(x, lens, True)
        o, c, h = self.forward_cell(x, h)
        if self.dynamic:
            o, _ = tr.pad_packed_sequence(o, True, 0, max_len)
            o = o.contiguous()
        if lens is not None:
            o.masked_fill_(~mask.unsqueeze(-1), 0)
        return o, c, h


class LSTM(BaseRNN):
    name = "lstm"

    def __init__(self, *args, **kwargs):
        super(LSTM, self).__init__(*args, **kwargs)
        self.lstm = nn.LSTM(**self._lstm_kwargs())

    def _lstm_kwargs(self):
        return dict(
            input_size=self.input_dim,
            hidden_size=self.hidden_dim,
            num_layers=self.layers,
            bidirectional=False,
            dropout=self.dropout,
            batch_first=True
        )

    def forward_cell(self, x, h0):
        o, (h, c) = self.lstm(x, h0)
        h = h.permute(1, 0, 2).contiguous()
        c = c.permute(1, 0, 2).contiguous()
        return o, c[:, -1], h[:, -1]


rnn = LSTM(10, 20)
x = torch.randn(4, 6, 10)
lens = torch.tensor([6, 5, 3, 2])
o, c, h = rnn(x, lens)
(o.sum() + h.sum()).backward()
print("backward ok")
