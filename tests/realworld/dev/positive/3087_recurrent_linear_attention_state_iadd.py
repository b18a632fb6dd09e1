# source: https://github.com/idiap/fast-transformers/pull/10
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the recurrent state Zi/Si returned by step t was saved by einsum in step t; step t+1 updates it with `+=`, bumping its version before backward.
# expect: line 53 — `Zi += K` on the state tensor that the previous step's einsum saved (line 54 `Si += ...` is the same bug on Si)
# checked: ran, reproduces (RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [8, 8, 8]], which is output 0 of AsStrided, is at version 3; expected version 2 instead -- the einsum-reshaped Si; driver loop over 3 steps added)
import torch
from torch.nn import Module


def elu_feature_map(x):
    return torch.nn.functional.elu(x) + 1


def check_state(state=None, memory=None):
    # stub of fast_transformers.recurrent._utils.check_state
    if memory is not None:
        state = memory
    return state


class RecurrentLinearAttention(Module):
    def __init__(self, feature_map=None, eps=1e-6):
        super(RecurrentLinearAttention, self).__init__()
        self.feature_map = feature_map or elu_feature_map
        self.eps = eps

    def forward(self, query, key, value, state=None, memory=None):
        # Normalize state/memory
        state = check_state(state, memory)

        # Apply the feature map to the query and key
        Q = self.feature_map(query)
        K = self.feature_map(key)

        # Extract some shapes
        N, H, D = Q.shape
        _, _, M = value.shape

        # Extract the memory or initialize it
        if state is None:
            Si = query.new_zeros((N, H, D, M))
            Zi = query.new_zeros((N, H, D))
        else:
            Si, Zi = state

        # Ensure the batch size did not change
        if len(Si) != N:
            raise ValueError("The batch size changed during iteration")

        # Update the internal state
        Zi += K
        Si += torch.einsum("nhd,nhm->nhdm", K, value)

        # Compute the output
        Z = 1. / (torch.einsum("nhd,nhd->nh", Q, Zi) + self.eps)
        V = torch.einsum("nhd,nhdm,nh->nhm", Q, Si, Z)

        return V, [Si, Zi]


# driver: unroll the recurrent attention over a few steps and backprop through the outputs
torch.manual_seed(0)
N, H, D, M, T = 2, 4, 8, 8, 3
proj = torch.nn.Linear(D, 3 * D)
attn = RecurrentLinearAttention()
x = torch.randn(T, N, H, D)
state = None
outs = []
for t in range(T):
    q, k, v = proj(x[t]).chunk(3, dim=-1)
    out, state = attn(q, k, v, state=state)
    outs.append(out)
torch.stack(outs).sum().backward()
print("ok")
