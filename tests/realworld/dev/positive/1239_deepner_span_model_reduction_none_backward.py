# source: https://github.com/z814081807/DeepNER/issues/19
# framework: torch
# family: F
# kind: backward-nonscalar
# pitfall: SpanModel builds its criterion with reduction='none' (needed only by the pseudo-label branch, which averages per example itself); in the ordinary branch start_loss and end_loss stay per-token vectors, so the trainer's loss.backward() fails with "grad can be implicitly created only for scalar outputs"
# expect: line 49 — reduction = 'none' makes the returned loss a vector for ordinary batches; the answer (confirmed by the author) is to use the default 'mean' when the loss is not post-processed
# checked: ran, reproduces (RuntimeError: grad can be implicitly created only for scalar outputs); src/utils/model_utils.py SpanModel at HEAD with the BERT encoder replaced by an embedding layer, the focal/label-smoothing criteria dropped, and the trainer's backward call

import torch
import torch.nn as nn


class BaseModel(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=32, dropout_prob=0.1):
        super(BaseModel, self).__init__()
        self.bert_module = nn.Embedding(vocab_size, hidden_size)
        self.hidden_size = hidden_size


class SpanModel(BaseModel):
    def __init__(self,
                 num_tags,
                 dropout_prob=0.1,
                 loss_type='ce',
                 **kwargs):
        """
        tag the subject and object corresponding to the predicate
        :param loss_type: train loss type in ['ce', 'ls_ce', 'focal']
        """
        super(SpanModel, self).__init__(dropout_prob=dropout_prob)

        out_dims = self.hidden_size

        mid_linear_dims = kwargs.pop('mid_linear_dims', 128)

        self.num_tags = num_tags

        self.mid_linear = nn.Sequential(
            nn.Linear(out_dims, mid_linear_dims),
            nn.ReLU(),
            nn.Dropout(dropout_prob)
        )

        out_dims = mid_linear_dims

        self.start_fc = nn.Linear(out_dims, num_tags)
        self.end_fc = nn.Linear(out_dims, num_tags)

        reduction = 'none'
        if loss_type == 'ce':
            self.criterion = nn.CrossEntropyLoss(reduction=reduction)

        self.loss_weight = nn.Parameter(torch.FloatTensor(1), requires_grad=True)
        self.loss_weight.data.fill_(-0.2)

    def forward(self,
                token_ids,
                attention_masks,
                start_ids=None,
                end_ids=None,
                pseudo=None):

        seq_out = self.bert_module(token_ids)

        seq_out = self.mid_linear(seq_out)

        start_logits = self.start_fc(seq_out)
        end_logits = self.end_fc(seq_out)

        out = (start_logits, end_logits, )

        if start_ids is not None and end_ids is not None and self.training:

            start_logits = start_logits.view(-1, self.num_tags)
            end_logits = end_logits.view(-1, self.num_tags)

            # 去掉 padding 部分的标签，计算真实 loss
            active_loss = attention_masks.view(-1) == 1
            active_start_logits = start_logits[active_loss]
            active_end_logits = end_logits[active_loss]

            active_start_labels = start_ids.view(-1)[active_loss]
            active_end_labels = end_ids.view(-1)[active_loss]

            start_loss = self.criterion(active_start_logits, active_start_labels)
            end_loss = self.criterion(active_end_logits, active_end_labels)

            loss = start_loss + end_loss

            out = (loss, ) + out

        return out


model = SpanModel(num_tags=5)
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
token_ids = torch.randint(0, 100, (2, 16))
masks = torch.ones(2, 16, dtype=torch.long)
start_ids, end_ids = torch.randint(0, 5, (2, 16)), torch.randint(0, 5, (2, 16))
loss = model(token_ids, masks, start_ids, end_ids)[0]
model.zero_grad()
loss.backward()
optimizer.step()
