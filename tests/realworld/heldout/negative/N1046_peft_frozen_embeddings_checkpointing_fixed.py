# source: https://github.com/huggingface/transformers/pull/42494
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# negative: the fix: when the input embeddings are frozen, enable_input_require_grads() makes the embedding output require grad (a forward hook), so the checkpointed layers stay connected
# mimics: positive/1046_peft_frozen_embeddings_checkpointing.py
# expect: no finding
# checked: ran, no error

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class LoraLinear(nn.Module):
    def __init__(self, dim, r=4):
        super().__init__()
        self.base = nn.Linear(dim, dim)
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.lora_A = nn.Linear(dim, r, bias=False)
        self.lora_B = nn.Linear(r, dim, bias=False)

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x))


class TinyDecoder(nn.Module):
    def __init__(self, vocab=100, dim=16, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([LoraLinear(dim) for _ in range(n_layers)])
        self.gradient_checkpointing = False

    def gradient_checkpointing_enable(self):
        self.gradient_checkpointing = True

    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        for layer in self.layers:
            if self.gradient_checkpointing and self.training:
                hidden_states = checkpoint(layer, hidden_states, use_reentrant=True)
            else:
                hidden_states = layer(hidden_states)
        return hidden_states


model = TinyDecoder()
model.embed_tokens.weight.requires_grad_(False)
model.gradient_checkpointing_enable()
model.embed_tokens.register_forward_hook(lambda module, input, output: output.requires_grad_(True))
model.train()
out = model(torch.randint(0, 100, (2, 5)))
print(out.requires_grad)
