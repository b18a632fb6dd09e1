# source: https://github.com/OpenNMT/OpenNMT-py/issues/403
# framework: torch
# family: C
# kind: hidden-state-not-detached
# pitfall: fix posted in the thread (pltrdy): rebind the detached tensors on the state object, `self.hidden = tuple(_.detach() ...)` and `self.input_feed = self.input_feed.detach()`.
# expect: no finding
# checked: ran: all 3 truncated chunks train. detach() body verbatim from pltrdy's comment; the no-op base-class detach removed
import torch
import torch.nn as nn


class DecoderState(object):
    """Interface for grouping together the current state of a recurrent
    decoder. In the simplest case just represents the hidden state of
    the model."""


class RNNDecoderState(DecoderState):
    def detach(self):
        self.hidden = tuple([_.detach() for _ in self.hidden])
        self.input_feed = self.input_feed.detach()

    def __init__(self, hidden_size, rnnstate):
        if not isinstance(rnnstate, tuple):
            self.hidden = (rnnstate,)
        else:
            self.hidden = rnnstate
        batch_size = self.hidden[0].size(1)
        self.input_feed = self.hidden[0].new_zeros(batch_size, hidden_size).unsqueeze(0)

    @property
    def _all(self):
        return self.hidden + (self.input_feed,)

    def update_state(self, rnnstate, input_feed):
        if not isinstance(rnnstate, tuple):
            self.hidden = (rnnstate,)
        else:
            self.hidden = rnnstate
        self.input_feed = input_feed


# --- minimal decoder + truncated-BPTT trainer loop in the shape of onmt Trainer._gradient_accumulation (stub) ---
class Decoder(nn.Module):
    def __init__(self, hidden_size=8):
        super().__init__()
        self.rnn = nn.LSTM(hidden_size * 2, hidden_size)
        self.out = nn.Linear(hidden_size, 5)

    def forward(self, tgt, state):
        x = torch.cat([tgt, state.input_feed.expand(tgt.size(0), -1, -1)], -1)
        outputs, rnnstate = self.rnn(x, state.hidden)
        state.update_state(rnnstate, outputs[-1:])
        return self.out(outputs), state


if __name__ == "__main__":
    torch.manual_seed(0)
    dec = Decoder()
    optim = torch.optim.SGD(dec.parameters(), lr=0.1)
    tgt_outer = torch.randn(12, 2, 8)
    gold = torch.randint(0, 5, (12, 2))
    trunc_size = 4
    dec_state = RNNDecoderState(8, (torch.zeros(1, 2, 8), torch.zeros(1, 2, 8)))
    for j in range(0, tgt_outer.size(0), trunc_size):
        tgt = tgt_outer[j: j + trunc_size]
        dec.zero_grad()
        outputs, dec_state = dec(tgt, dec_state)
        loss = nn.functional.cross_entropy(outputs.reshape(-1, 5), gold[j: j + trunc_size].reshape(-1))
        loss.backward()
        optim.step()
        # If truncated, don't backprop fully.
        if dec_state is not None:
            dec_state.detach()
        print(j, loss.item())
