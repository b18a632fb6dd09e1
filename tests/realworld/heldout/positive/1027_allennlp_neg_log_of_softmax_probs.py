# source: https://github.com/allenai/allennlp/issues/2797
# framework: torch
# family: E
# kind: nan-grad-singular-point
# pitfall: a modified decomposable-attention model takes -torch.log of softmax probabilities; with large-magnitude logits softmax gives exact zeros and the loss becomes nan
# expect: line 18 — -torch.log(softmax(...)) is inf where a probability underflows to 0 (the loss and gradient turn nan); use log_softmax
# checked: ran, reproduces (loss is nan)

import torch

label_logits_squeezed = torch.tensor([[-142.5523, -211.9173, -247.6974]], requires_grad=True)
labels = torch.tensor([[0.0, 0.0, 1.0]])

label_probs = torch.nn.functional.softmax(label_logits_squeezed, dim=-1)
print()
print("Label logits squeezed", label_logits_squeezed)
print("Label probs", label_probs)
log_label_probs = -torch.log(label_probs)
print("Log Label Probs", log_label_probs)
loss = log_label_probs * labels.float()
print("Loss", loss.shape)
print("Loss", loss)
loss = torch.sum(loss)
print("final loss", loss)
print()
loss.backward()
