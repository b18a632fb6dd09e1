# source: variant of 1127_bert_frozen_embeddings_gradient_checkpointing.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: a helper freezes the embedding module of a pretrained model by iterating named_parameters; the model then enables (reentrant) gradient checkpointing, so the hidden states entering the checkpointed layers do not require grad and nothing trains
# expect: line 25 — gradient_checkpointing_enable() after freezing the embeddings
# checked: parse only (needs transformers and the checkpoint)
import torch
from transformers import AutoModel, AutoTokenizer


def freeze_embeddings(model):
    for name, param in model.named_parameters():
        if name.startswith("embeddings."):
            param.requires_grad = False
    return model


class Finetuner:
    def __init__(self, name="bert-base-uncased"):
        self.tokenizer = AutoTokenizer.from_pretrained(name)
        self.model = AutoModel.from_pretrained(name)
        freeze_embeddings(self.model)
        self.model.train()
        self.model.gradient_checkpointing_enable()
        self.optimizer = torch.optim.AdamW([p for p in self.model.parameters() if p.requires_grad], lr=2e-5)

    def step(self, text):
        batch = self.tokenizer(text, return_tensors="pt")
        loss = self.model(**batch).last_hidden_state.pow(2).mean()
        loss.backward()
        self.optimizer.step()
        self.optimizer.zero_grad()


Finetuner().step("Hello, my dog is cute")
