# source: variant of 1127_bert_frozen_embeddings_gradient_checkpointing.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: a setup helper freezes the input embeddings through model.get_input_embeddings().requires_grad_(False) and then enables gradient checkpointing (reentrant); the first checkpointed layer sees no input that requires grad, so nothing in the encoder trains
# expect: line 17 — gradient checkpointing enabled on a model whose input embeddings are frozen (use enable_input_require_grads() or use_reentrant=False)
# checked: parse only (needs transformers and the bert-base-uncased checkpoint)

import torch
from transformers import AutoModel, AutoTokenizer


def setup_model(name, freeze_embeddings=True):
    model = AutoModel.from_pretrained(name)
    if freeze_embeddings:
        model.get_input_embeddings().requires_grad_(False)
    model.gradient_checkpointing_enable()
    model.train()
    return model


tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")
model = setup_model("bert-base-uncased")
optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=2e-5)
batch = tokenizer(["Hello, my dog is cute"], return_tensors="pt")
loss = model(**batch).last_hidden_state.pow(2).mean()
loss.backward()
optimizer.step()
