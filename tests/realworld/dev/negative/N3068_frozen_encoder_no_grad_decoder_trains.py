# source: https://github.com/nayeon7lee/bert-summarization/issues/7
# framework: torch
# family: C
# kind: loss-under-no-grad
# pitfall: the issue asks whether `torch.no_grad()` inside train_one_batch/generate_refinement_output stops training; it does not: only the frozen BERT encoder runs under no_grad, the decoder/generator forward and the loss are computed outside it, so backward trains the decoder.
# expect: no finding
# checked: ran (stub BERT/decoder/generator, random batch): loss.backward() works and the decoder gets non-zero gradients every step. train_one_batch / generate_refinement_output verbatim from model/transformer.py (commented-out debug lines dropped)
import types

import torch
import torch.nn as nn
import torch.nn.functional as F

# --- stubs (not from the thread): config, batch helpers, BERT encoder, decoder, generator ---
config = types.SimpleNamespace(PAD_idx=0, SOS_idx=1, USE_CUDA=False, noam=False, max_dec_step=4,
                               emb_dim=16, hidden_dim=16, vocab_size=30, lr=1e-3)

def get_input_from_batch(batch):
    return batch["ids"], batch["mask"].clone(), batch["seg"], batch["ids"], None, None

def get_output_from_batch(batch):
    return batch["dec"], batch["dec_mask"].clone(), batch["seg"], None, None

class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = nn.Embedding(config.vocab_size, config.emb_dim)
        self.layer = nn.Linear(config.emb_dim, config.emb_dim)
    def forward(self, input_ids, token_type_ids=None, attention_mask=None, output_all_encoded_layers=False):
        h = self.layer(self.embeddings(input_ids)) * attention_mask.unsqueeze(-1)
        return h, h[:, 0]

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(config.emb_dim * 2, config.hidden_dim)
    def forward(self, inputs, encoder_outputs, masks):
        ctx = encoder_outputs.mean(1, keepdim=True).expand(-1, inputs.size(1), -1)
        return self.proj(torch.cat([inputs, ctx], -1)), torch.zeros(inputs.size(0), inputs.size(1), encoder_outputs.size(1))

class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(config.hidden_dim, config.vocab_size)
    def forward(self, x, attn_dist, enc_batch_extend_vocab, extra_zeros, copy_gate=None, copy_ptr=None, mask_trg=None):
        return F.log_softmax(self.proj(x), dim=-1)
# --- end stubs ---


class Summarizer(nn.Module):
    def __init__(self):
        super(Summarizer, self).__init__()
        self.encoder = TinyBert()
        self.encoder.eval() # always in eval mode
        self.embedding = self.encoder.embeddings
        self.decoder = Decoder()
        self.generator = Generator()
        self.criterion = nn.NLLLoss(ignore_index=config.PAD_idx)
        self.embedding = self.embedding.eval()
        self.optimizer = torch.optim.Adam(self.parameters(), lr=config.lr)

    def train_one_batch(self, batch, train=True):
        ## pad and other stuff
        input_ids_batch, input_mask_batch, example_index_batch, enc_batch_extend_vocab, extra_zeros, _ = get_input_from_batch(batch)
        dec_batch, dec_mask_batch, dec_index_batch, copy_gate, copy_ptr = get_output_from_batch(batch)
        
        if(config.noam):
            self.optimizer.optimizer.zero_grad()
        else:
            self.optimizer.zero_grad()

        with torch.no_grad():
            # encoder_outputs are hidden states from transformer
            encoder_outputs, _ = self.encoder(input_ids_batch, token_type_ids=example_index_batch, attention_mask=input_mask_batch, output_all_encoded_layers=False)

        # # Draft Decoder 
        sos_token = torch.LongTensor([config.SOS_idx] * input_ids_batch.size(0)).unsqueeze(1)
        if config.USE_CUDA: sos_token = sos_token.cuda(device=0)

        dec_batch_shift = torch.cat((sos_token,dec_batch[:, :-1]),1) # shift the decoder input (summary) by one step
        mask_trg = dec_batch_shift.data.eq(config.PAD_idx).unsqueeze(1)
        pre_logit1, attn_dist1 = self.decoder(self.embedding(dec_batch_shift),encoder_outputs, (None,mask_trg))
        
        ## compute output dist
        logit1 = self.generator(pre_logit1,attn_dist1,enc_batch_extend_vocab, extra_zeros, copy_gate=copy_gate, copy_ptr=copy_ptr, mask_trg= mask_trg)
        ## loss: NNL if ptr else Cross entropy
        loss1 = self.criterion(logit1.contiguous().view(-1, logit1.size(-1)), dec_batch.contiguous().view(-1))

        # Refine Decoder - train using gold label TARGET
        pre_logit2, attn_dist2 = self.generate_refinement_output(encoder_outputs, dec_batch, dec_index_batch, extra_zeros, dec_mask_batch)
        
        logit2 = self.generator(pre_logit2,attn_dist2,enc_batch_extend_vocab, extra_zeros, copy_gate=copy_gate, copy_ptr=copy_ptr, mask_trg= None)
        loss2 = self.criterion(logit2.contiguous().view(-1, logit2.size(-1)), dec_batch.contiguous().view(-1))

        loss = loss1+loss2

        if train:
            loss.backward()
            self.optimizer.step()
        return loss

    def generate_refinement_output(self, encoder_outputs, input_ids_batch, example_index_batch, extra_zeros, input_mask_batch):
        logits, attns = [],[]

        for i in range(config.max_dec_step):
            with torch.no_grad():
                # Additionally mask the location of i. 
                context_input_mask_batch = []
                for mask in input_mask_batch:
                    mask[i]=0
                    context_input_mask_batch.append(mask)

                context_input_mask_batch = torch.stack(context_input_mask_batch) #.cuda(device=0)
                context_vector, _ = self.encoder(input_ids_batch, token_type_ids=example_index_batch, attention_mask=context_input_mask_batch, output_all_encoded_layers=False)
                
                if config.USE_CUDA: context_vector = context_vector.cuda(device=0)
            # decoder input size == encoder output size == (batch_size, 512, 768)
            out, attn_dist = self.decoder(context_vector,encoder_outputs, (None,None))

            logits.append(out[:,i:i+1,:])
            attns.append(attn_dist[:,i:i+1,:])
        
        logits = torch.cat(logits, dim=1)
        attns = torch.cat(attns, dim=1)

        return logits, attns


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Summarizer()
    L = config.max_dec_step
    batch = {"ids": torch.randint(2, 30, (2, L)), "mask": torch.ones(2, L), "seg": torch.zeros(2, L, dtype=torch.long),
             "dec": torch.randint(2, 30, (2, L)), "dec_mask": torch.ones(2, L)}
    for step in range(3):
        print(step, model.train_one_batch(batch).item(),
              "decoder grad norm", model.decoder.proj.weight.grad.norm().item())
