# source: https://github.com/edreisMD/ConVIRT-pytorch/issues/7
# framework: torch
# family: D
# kind: no-grad-in-forward
# pitfall: the text branch of the model runs BERT and its projection head (bert_l1, bert_l2) inside torch.no_grad() in forward, so the projection head, although it is in the optimizer, is never trained
# expect: line 34 — torch.no_grad() in forward also covers the trainable projection head; its parameters never receive a gradient
# checked: ran, reproduces (bert_l1 and bert_l2 get no gradient)

import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelCLR(nn.Module):
    def __init__(self, out_dim=8):
        super(ModelCLR, self).__init__()
        self.bert_model = nn.Embedding(100, 16)
        self.bert_l1 = nn.Linear(16, 16)
        self.bert_l2 = nn.Linear(16, out_dim)
        self.res_features = nn.Linear(32, 16)
        self.res_l1 = nn.Linear(16, 16)
        self.res_l2 = nn.Linear(16, out_dim)

    def mean_pooling(self, model_output, attention_mask):
        token_embeddings = model_output
        input_mask_expanded = attention_mask.unsqueeze(-1).expand(token_embeddings.size()).float()
        return torch.sum(token_embeddings * input_mask_expanded, 1) / torch.clamp(input_mask_expanded.sum(1), min=1e-9)

    def image_encoder(self, xis):
        h = self.res_features(xis)
        return self.res_l2(F.relu(self.res_l1(h)))

    def text_encoder(self, encoded_inputs):
        with torch.no_grad():
            outputs = self.bert_model(encoded_inputs['input_ids'])
            sentence_embeddings = self.mean_pooling(outputs, encoded_inputs['attention_mask'])
            x_l = self.bert_l1(sentence_embeddings)
            x_l = F.relu(x_l)
            out_emb = self.bert_l2(x_l)
        return out_emb

    def forward(self, xis, encoded_inputs):
        return self.image_encoder(xis), self.text_encoder(encoded_inputs)


model = ModelCLR()
optimizer = torch.optim.Adam(model.parameters(), 3e-4, weight_decay=1e-6)
zis, zls = model(torch.randn(4, 32), {'input_ids': torch.randint(0, 100, (4, 6)), 'attention_mask': torch.ones(4, 6)})
logits = F.normalize(zis, dim=1) @ F.normalize(zls, dim=1).t()
loss = F.cross_entropy(logits / 0.1, torch.arange(4))
optimizer.zero_grad()
loss.backward()
optimizer.step()
