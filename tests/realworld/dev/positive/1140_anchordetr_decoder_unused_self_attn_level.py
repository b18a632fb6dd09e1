# source: https://github.com/megvii-research/AnchorDETR/issues/6
# framework: torch
# family: F
# kind: other-ddp-unused-parameters
# pitfall: the decoder layer registers a level self-attention that its forward never calls; with DistributedDataParallel and find_unused_parameters=False the reducer waits for its gradients forever and the next iteration raises
# expect: line 48 — self.self_attn_level is registered but never used in forward(); the maintainers' fix is to delete it ("Expected to have finished reduction in the prior iteration")
# checked: ran, reproduces (gloo, world_size=1, CPU; the decoder layer is the repository's with the nn.MultiheadAttention branch; the position embedding helper is simplified and the DDP driver at the bottom is reconstructed)
import os
import torch
import torch.nn.functional as F
import torch.distributed as dist
from torch import nn


def pos2posemb2d(pos, num_pos_feats=128, temperature=10000):
    scale = 2 * torch.pi
    pos = pos * scale
    dim_t = torch.arange(num_pos_feats, dtype=torch.float32, device=pos.device)
    dim_t = temperature ** (2 * (dim_t // 2) / num_pos_feats)
    pos_x = pos[..., 0, None] / dim_t
    pos_y = pos[..., 1, None] / dim_t
    pos_x = torch.stack((pos_x[..., 0::2].sin(), pos_x[..., 1::2].cos()), dim=-1).flatten(-2)
    pos_y = torch.stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos()), dim=-1).flatten(-2)
    posemb = torch.cat((pos_y, pos_x), dim=-1)
    return posemb


class TransformerDecoderLayer(nn.Module):
    def __init__(self, d_model=256, d_ffn=1024,
                 dropout=0., activation="relu", n_heads=8,
                 n_levels=3, attention_type="RCDA"):
        super().__init__()

        self.attention_type = attention_type
        attention_module=nn.MultiheadAttention

        # cross attention
        self.cross_attn = attention_module(d_model, n_heads, dropout=dropout)
        self.dropout1 = nn.Dropout(dropout)
        self.norm1 = nn.LayerNorm(d_model)

        # self attention
        self.self_attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout)
        self.dropout2 = nn.Dropout(dropout)
        self.norm2 = nn.LayerNorm(d_model)

        # self attention
        self.self_attn_level = nn.MultiheadAttention(d_model, n_heads, dropout=dropout)
        self.level_fc = nn.Linear(d_model * n_levels, d_model)
        # ffn
        self.ffn = FFN(d_model, d_ffn, dropout, activation)

    @staticmethod
    def with_pos_embed(tensor, pos):
        return tensor if pos is None else tensor + pos

    def forward(self, tgt, reference_points, srcs, src_padding_masks=None, adapt_pos2d=None,
                adapt_pos1d=None, posemb_row=None, posemb_col=None, posemb_2d=None):
        tgt_len = tgt.shape[1]

        query_pos = pos2posemb2d(reference_points.squeeze(2))
        query_pos = adapt_pos2d(query_pos)
        # self attention
        q = k = self.with_pos_embed(tgt, query_pos)
        tgt2 = self.self_attn(q.transpose(0, 1), k.transpose(0, 1), tgt.transpose(0, 1))[0].transpose(0, 1)
        tgt = tgt + self.dropout2(tgt2)
        tgt = self.norm2(tgt)

        bz, l, c, h, w = srcs.shape
        srcs = srcs.reshape(bz * l, c, h, w).permute(0, 2, 3, 1)

        tgt2 = self.cross_attn((tgt + query_pos).repeat(l, 1, 1).transpose(0, 1),
                               (srcs + posemb_2d).reshape(bz * l, h * w, c).transpose(0,1),
                               srcs.reshape(bz * l, h * w, c).transpose(0, 1))[0].transpose(0,1)

        if l > 1:
            tgt2 = self.level_fc(tgt2.reshape(bz, l, tgt_len, c).permute(0, 2, 3, 1).reshape(bz, tgt_len, c * l))

        tgt = tgt + self.dropout1(tgt2)
        tgt = self.norm1(tgt)

        # ffn
        tgt = self.ffn(tgt)

        return tgt


class FFN(nn.Module):

    def __init__(self, d_model=256, d_ffn=1024, dropout=0., activation='relu'):
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ffn)
        self.activation = F.relu
        self.dropout2 = nn.Dropout(dropout)
        self.linear2 = nn.Linear(d_ffn, d_model)
        self.dropout3 = nn.Dropout(dropout)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, src):
        src2 = self.linear2(self.dropout2(self.activation(self.linear1(src))))
        src = src + self.dropout3(src2)
        src = self.norm2(src)
        return src


class Decoder(nn.Module):
    def __init__(self, d_model=256):
        super().__init__()
        self.layer = TransformerDecoderLayer(d_model, 1024, n_heads=8, n_levels=3,
                                             attention_type="nn.MultiheadAttention")
        self.adapt_pos2d = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, d_model))

    def forward(self, tgt, reference_points, srcs, posemb_2d):
        return self.layer(tgt, reference_points, srcs, adapt_pos2d=self.adapt_pos2d, posemb_2d=posemb_2d)


os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29532")
dist.init_process_group("gloo", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(Decoder())
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(2):
    tgt = torch.randn(2, 10, 256)
    reference_points = torch.rand(2, 10, 1, 2)
    srcs = torch.randn(2, 3, 256, 4, 4)
    posemb_2d = torch.randn(6, 4, 4, 256)
    loss = model(tgt, reference_points, srcs, posemb_2d).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
