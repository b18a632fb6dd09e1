# source: https://github.com/torchmd/torchmd-net/issues/77
# framework: torch
# family: E
# kind: nan-grad-singular-point
# negative: the maintainers' fix (commit 00bfa6e): the norm is computed only for atoms whose projected vector features are non-zero, the others keep 0 with no gradient path through the norm (the rank_zero_warn about skipped atoms is left out)
# mimics: positive/1241_torchmd_gated_block_norm_of_zero_vectors_forces.py
# expect: no finding
# checked: ran, no NaN in the gradient

import math

import torch
import torch.nn as nn

act_class_mapping = {"silu": nn.SiLU}


class GatedEquivariantBlock(nn.Module):
    """Gated Equivariant Block as defined in Schütt et al. (2021):
    Equivariant message passing for the prediction of tensorial properties and molecular spectra
    """

    def __init__(
        self,
        hidden_channels,
        out_channels,
        intermediate_channels=None,
        activation="silu",
        scalar_activation=False,
    ):
        super(GatedEquivariantBlock, self).__init__()
        self.out_channels = out_channels

        if intermediate_channels is None:
            intermediate_channels = hidden_channels

        self.vec1_proj = nn.Linear(hidden_channels, hidden_channels, bias=False)
        self.vec2_proj = nn.Linear(hidden_channels, out_channels, bias=False)

        act_class = act_class_mapping[activation]
        self.update_net = nn.Sequential(
            nn.Linear(hidden_channels * 2, intermediate_channels),
            act_class(),
            nn.Linear(intermediate_channels, out_channels * 2),
        )

        self.act = act_class() if scalar_activation else None

    def forward(self, x, v):
        vec1_buffer = self.vec1_proj(v)

        # detach zero-entries to avoid NaN gradients during force loss backpropagation
        vec1 = torch.zeros(
            vec1_buffer.size(0), vec1_buffer.size(2), device=vec1_buffer.device
        )
        mask = (vec1_buffer != 0).view(vec1_buffer.size(0), -1).any(dim=1)
        vec1[mask] = torch.norm(vec1_buffer[mask], dim=-2)

        vec2 = self.vec2_proj(v)

        x = torch.cat([x, vec1], dim=-1)
        x, v = torch.split(self.update_net(x), self.out_channels, dim=-1)
        v = v.unsqueeze(1) * vec2

        if self.act is not None:
            x = self.act(x)
        return x, v


class TinyEquivariantModel(nn.Module):
    def __init__(self, hidden_channels=8, cutoff=2.0):
        super().__init__()
        self.cutoff = cutoff
        self.embedding = nn.Parameter(torch.randn(hidden_channels))
        self.filter = nn.Linear(1, hidden_channels)
        self.block = GatedEquivariantBlock(hidden_channels, 1)

    def forward(self, pos):
        n = pos.shape[0]
        diff = pos[None, :, :] - pos[:, None, :]                      # (n, n, 3)
        dist = (diff.pow(2).sum(-1) + torch.eye(n)).sqrt()            # eye keeps the diagonal away from 0
        cutoff = 0.5 * (torch.cos(dist * math.pi / self.cutoff) + 1.0) * (dist < self.cutoff) * (1 - torch.eye(n))
        w = self.filter(dist.unsqueeze(-1)) * cutoff.unsqueeze(-1)   # (n, n, H)
        v = ((diff / dist.unsqueeze(-1)).unsqueeze(-1) * w.unsqueeze(2)).sum(1)  # (n, 3, H)
        x = self.embedding.expand(n, -1)
        x, _ = self.block(x, v)
        return x.sum()


model = TinyEquivariantModel()
pos = torch.tensor([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.2, 0.0], [9.0, 9.0, 9.0]], requires_grad=True)
energy = model(pos)
forces = -torch.autograd.grad(energy, pos, create_graph=True)[0]
loss = forces.pow(2).mean()
loss.backward()
print('NaN in gradient:', torch.isnan(model.block.vec1_proj.weight.grad).any().item())
