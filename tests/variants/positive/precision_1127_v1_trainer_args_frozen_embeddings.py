# source: variant of 1127_bert_frozen_embeddings_gradient_checkpointing.py
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# pitfall: the embeddings of a pretrained encoder are frozen with requires_grad_(False) and gradient checkpointing is switched on through TrainingArguments(gradient_checkpointing=True); the reentrant checkpoint sees hidden states that do not require grad, so the encoder layers get no gradient
# expect: line 17 — gradient_checkpointing=True (reentrant) after freezing the input embeddings
# checked: parse only (needs transformers and the checkpoint)
from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=2)
model.get_input_embeddings().requires_grad_(False)
model.bert.embeddings.position_embeddings.requires_grad_(False)

args = TrainingArguments(
    output_dir="out",
    per_device_train_batch_size=8,
    gradient_checkpointing=True,
    fp16=False,
)
train_ds = [{"input_ids": [101, 7592, 102], "labels": 1}] * 64
trainer = Trainer(model=model, args=args, train_dataset=train_ds)
trainer.train()
