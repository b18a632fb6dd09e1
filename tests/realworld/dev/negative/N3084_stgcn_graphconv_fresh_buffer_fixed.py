# source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/57
# framework: torch
# family: D
# kind: inplace-on-saved-tensor
# pitfall: the library's fix: read slices from T_0 and write into a fresh `torch.zeros_like(T_0)` buffer; the index assignments into T touch nothing autograd saved.
# expect: no finding
# checked: ran, clean (prints the output shape)
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChebConv(nn.Module):
    # stand-in for torch_geometric.nn.ChebConv (torch_geometric not installed): Chebyshev filter of order K on the
    # scaled Laplacian built densely from edge_index; like the real layer it applies nn.Linear to its input.
    def __init__(self, in_channels, out_channels, K, normalization="sym", bias=True):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(in_channels, out_channels, bias=False) for _ in range(K)])
        self.bias = nn.Parameter(torch.zeros(out_channels)) if bias else None

    def forward(self, x, edge_index, edge_weight=None):
        n = x.size(0)
        A = torch.zeros(n, n)
        A[edge_index[0], edge_index[1]] = 1.0 if edge_weight is None else edge_weight
        deg = A.sum(1).clamp(min=1)
        L_hat = -(deg.rsqrt()[:, None] * A * deg.rsqrt()[None, :])  # L - I with lambda_max = 2
        Tx_0 = x
        out = self.lins[0](Tx_0)
        if len(self.lins) > 1:
            Tx_1 = L_hat @ x
            out = out + self.lins[1](Tx_1)
        for lin in self.lins[2:]:
            Tx_2 = 2. * (L_hat @ Tx_1) - Tx_0
            out = out + lin(Tx_2)
            Tx_0, Tx_1 = Tx_1, Tx_2
        if self.bias is not None:
            out = out + self.bias
        return out


class TemporalConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int=3):
        super(TemporalConv, self).__init__()
        self.conv_1 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_2 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))
        self.conv_3 = nn.Conv2d(in_channels, out_channels, (1, kernel_size))

    def forward(self, X: torch.FloatTensor) -> torch.FloatTensor:
        X = X.permute(0, 3, 2, 1)
        P = self.conv_1(X)
        Q = torch.sigmoid(self.conv_2(X))
        PQ = P + Q
        H = F.relu(PQ + self.conv_3(X))
        H = H.permute(0, 3, 2, 1)
        return H


class STConv(nn.Module):
    def __init__(self, num_nodes: int, in_channels: int, hidden_channels: int,
                out_channels: int, kernel_size: int, K: int,
                normalization: str="sym", bias: bool=True):
        super(STConv, self).__init__()
        self.num_nodes = num_nodes
        self._temporal_conv1 = TemporalConv(in_channels=in_channels, out_channels=hidden_channels, kernel_size=kernel_size)
        self._graph_conv = ChebConv(in_channels=hidden_channels, out_channels=hidden_channels, K=K,
                                   normalization=normalization, bias=bias)
        self._temporal_conv2 = TemporalConv(in_channels=hidden_channels, out_channels=out_channels, kernel_size=kernel_size)
        self._batch_norm = nn.BatchNorm2d(num_nodes)

    def forward(self, X: torch.FloatTensor, edge_index: torch.LongTensor,
                edge_weight: torch.FloatTensor=None) -> torch.FloatTensor:
        T_0 = self._temporal_conv1(X)
        T = torch.zeros_like(T_0).to(T_0.device)
        for b in range(T_0.size(0)):
            for t in range(T_0.size(1)):
                T[b][t] = self._graph_conv(T_0[b][t], edge_index, edge_weight)

        T = F.relu(T)
        T = self._temporal_conv2(T)
        T = T.permute(0, 2, 1, 3)
        T = self._batch_norm(T)
        T = T.permute(0, 2, 1, 3)
        return T


# driver: 20 nodes on a ring, batch of 2 sequences of 12 steps
torch.manual_seed(0)
num_nodes = 20
src = torch.arange(num_nodes)
edge_index = torch.stack([torch.cat([src, (src + 1) % num_nodes]), torch.cat([(src + 1) % num_nodes, src])])
model = STConv(num_nodes=num_nodes, in_channels=2, hidden_channels=64, out_channels=16, kernel_size=3, K=2)
X = torch.randn(2, 12, num_nodes, 2)
out = model(X, edge_index)
out.mean().backward()
print(out.shape)
