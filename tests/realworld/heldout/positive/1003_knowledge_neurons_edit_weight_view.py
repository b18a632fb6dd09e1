# source: https://github.com/Hunter-DDM/knowledge-neurons/issues/14
# framework: torch
# family: D
# kind: inplace-on-leaf
# pitfall: knowledge editing subtracts an embedding from a column of a BERT weight (a view of a leaf parameter) outside torch.no_grad()
# expect: line 20 — in-place -= on a view of a parameter that requires grad raises "a view of a leaf Variable ... in-place operation"
# checked: parse only (needs a pretrained BERT model and the repository's neuron lists)

import torch
from transformers import BertForMaskedLM

model = BertForMaskedLM.from_pretrained("bert-base-cased")
kn_rel = [(9, 2048), (10, 1024)]
lambda_list_1 = [1.0, 1.0]
lambda_list_2 = [2.0, 2.0]
ori_pred_emb = model.bert.embeddings.word_embeddings.weight[1000]
tgt_emb = model.bert.embeddings.word_embeddings.weight[2000]

for i, (layer, pos) in enumerate(kn_rel):
    model.bert.encoder.layer[layer].output.dense.weight[:, pos] -= ori_pred_emb * lambda_list_1[i]
    model.bert.encoder.layer[layer].output.dense.weight[:, pos] += tgt_emb * lambda_list_2[i]
