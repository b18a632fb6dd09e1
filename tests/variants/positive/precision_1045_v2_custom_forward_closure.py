# source: variant of 1045_checkpoint_lambda_input_no_grad.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: the transformers-style create_custom_forward closure wraps each encoder layer for torch.utils.checkpoint.checkpoint (reentrant default); the hidden states entering the stack come from token ids through a frozen embedding, so no checkpoint input requires grad
# expect: line 35 — reentrant checkpoint whose inputs do not require grad
# checked: ran, reproduces (warning "None of the inputs have requires_grad=True"; the layers' weights get no gradient, output.requires_grad False)
import torch
import torch.nn as nn
import torch.utils.checkpoint


def create_custom_forward(module):
    def custom_forward(*inputs):
        return module(*inputs)

    return custom_forward


class Encoder(nn.Module):
    def __init__(self, vocab=100, dim=16, n_layers=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.layer = nn.ModuleList([nn.TransformerEncoderLayer(dim, 2, 32, batch_first=True) for _ in range(n_layers)])
        self.gradient_checkpointing = False

    def freeze_embeddings(self):
        for p in self.embeddings.parameters():
            p.requires_grad = False

    def forward(self, input_ids):
        hidden_states = self.embeddings(input_ids)
        for layer_module in self.layer:
            if self.gradient_checkpointing and self.training:
                hidden_states = torch.utils.checkpoint.checkpoint(
                    create_custom_forward(layer_module),
                    hidden_states,
                )
            else:
                hidden_states = layer_module(hidden_states)
        return hidden_states


enc = Encoder()
enc.freeze_embeddings()
enc.gradient_checkpointing = True
enc.train()
out = enc(torch.randint(0, 100, (2, 7)))
print(out.requires_grad)
