# source: https://github.com/huggingface/transformers/issues/21381
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: the first layers of a BERT model (including the embeddings) are frozen while gradient checkpointing is on; with the reentrant checkpoint, the hidden states entering the first checkpointed layer do not require grad, so the whole output has requires_grad False and nothing trains
# expect: line 22 — reentrant gradient checkpointing after freezing the embeddings: the checkpointed layers' outputs lose requires_grad (fix: use_reentrant=False or enable_input_require_grads())
# checked: parse only (needs transformers and the bert-base-uncased checkpoint)

import torch
from transformers import BertModel, BertTokenizer

tokenizer = BertTokenizer.from_pretrained("bert-base-uncased")
model = BertModel.from_pretrained("bert-base-uncased")
model.train()

for param in model.embeddings.parameters():
    param.requires_grad = False
for layer in model.encoder.layer[:6]:
    for param in layer.parameters():
        param.requires_grad = False

model.gradient_checkpointing_enable()

inputs = tokenizer("Hello, my dog is cute", return_tensors="pt")
output = model(**inputs)
print(output.last_hidden_state.requires_grad)  # False
