# source: https://github.com/idiap/fast-transformers/pull/10
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: fix from the PR: the recurrent state is updated out of place (`Zi = Zi + K`), so the tensors saved by the previous step's einsum keep their version.
# expect: no finding
# checked: ran, clean (prints ok)
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
        Zi = Zi + K
        Si = Si + torch.einsum("nhd,nhm->nhdm", K, value)

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
