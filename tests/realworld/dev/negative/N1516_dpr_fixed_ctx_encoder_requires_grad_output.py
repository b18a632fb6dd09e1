# source: https://github.com/facebookresearch/DPR/issues/196
# framework: torch
# family: A
# kind: loss-under-no-grad
# negative: with fix_ctx_encoder the context encoder deliberately runs under torch.no_grad(); its outputs are then marked requires_grad_ so the shared backward call works, while the question encoder, run with grad, is what gets trained
# mimics: an encoder run under no_grad inside training, outputs re-marked with requires_grad
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn


class BiEncoder(nn.Module):
    def __init__(self, question_model, ctx_model, fix_q_encoder=False, fix_ctx_encoder=False):
        super(BiEncoder, self).__init__()
        self.question_model = question_model
        self.ctx_model = ctx_model
        self.fix_q_encoder = fix_q_encoder
        self.fix_ctx_encoder = fix_ctx_encoder

    @staticmethod
    def get_representation(sub_model, ids, fix_encoder=False):
        if fix_encoder:
            with torch.no_grad():
                pooled_output = sub_model(ids)
            if sub_model.training:
                pooled_output.requires_grad_(requires_grad=True)
        else:
            pooled_output = sub_model(ids)
        return pooled_output

    def forward(self, question_ids, context_ids):
        q_pooled_out = self.get_representation(self.question_model, question_ids, self.fix_q_encoder)
        ctx_pooled_out = self.get_representation(self.ctx_model, context_ids, self.fix_ctx_encoder)
        return q_pooled_out, ctx_pooled_out


biencoder = BiEncoder(nn.Linear(8, 4), nn.Linear(8, 4), fix_ctx_encoder=True)
optimizer = torch.optim.Adam(biencoder.parameters(), lr=1e-5)
q_vectors, ctx_vectors = biencoder(torch.randn(2, 8), torch.randn(4, 8))
scores = q_vectors @ ctx_vectors.t()
loss = nn.functional.cross_entropy(scores, torch.tensor([0, 2]))
optimizer.zero_grad()
loss.backward()
optimizer.step()
