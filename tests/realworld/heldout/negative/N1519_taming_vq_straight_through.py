# source: https://github.com/CompVis/taming-transformers/issues/35
# framework: torch
# family: A
# kind: detach-on-loss-path
# negative: the vector quantiser picks codes with argmin (non-differentiable, used only as an index) and uses detach() deliberately: the codebook/commitment losses detach one side each, and z + (z_q - z).detach() is the straight-through estimator that passes the decoder's gradient to the encoder
# mimics: detach() and argmin between the encoder and the loss
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class VectorQuantizer(nn.Module):
    def __init__(self, n_e, e_dim, beta):
        super(VectorQuantizer, self).__init__()
        self.n_e = n_e
        self.e_dim = e_dim
        self.beta = beta
        self.embedding = nn.Embedding(self.n_e, self.e_dim)
        self.embedding.weight.data.uniform_(-1.0 / self.n_e, 1.0 / self.n_e)

    def forward(self, z):
        z = z.permute(0, 2, 3, 1).contiguous()
        z_flattened = z.view(-1, self.e_dim)
        d = torch.sum(z_flattened ** 2, dim=1, keepdim=True) + \
            torch.sum(self.embedding.weight ** 2, dim=1) - 2 * \
            torch.matmul(z_flattened, self.embedding.weight.t())

        min_encoding_indices = torch.argmin(d, dim=1).unsqueeze(1)
        min_encodings = torch.zeros(min_encoding_indices.shape[0], self.n_e).to(z)
        min_encodings.scatter_(1, min_encoding_indices, 1)

        z_q = torch.matmul(min_encodings, self.embedding.weight).view(z.shape)

        loss = torch.mean((z_q.detach() - z) ** 2) + self.beta * \
            torch.mean((z_q - z.detach()) ** 2)

        # preserve gradients
        z_q = z + (z_q - z).detach()

        z_q = z_q.permute(0, 3, 1, 2).contiguous()
        return z_q, loss


encoder = nn.Conv2d(3, 4, 3, padding=1)
decoder = nn.Conv2d(4, 3, 3, padding=1)
quantize = VectorQuantizer(n_e=16, e_dim=4, beta=0.25)
x = torch.randn(2, 3, 8, 8)
z_q, qloss = quantize(encoder(x))
rec = decoder(z_q)
loss = (rec - x).abs().mean() + qloss
loss.backward()
