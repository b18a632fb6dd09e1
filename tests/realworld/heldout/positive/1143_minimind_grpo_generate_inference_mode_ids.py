# source: https://github.com/jingyaogong/minimind/issues/754
# framework: torch
# family: F
# kind: inference-mode-tensor-in-training
# pitfall: the rollout token ids come from model.generate(), which is decorated with @torch.inference_mode(); the GRPO step then feeds those ids into the training forward (embedding lookup, gather), which must save them for backward
# expect: line 71 — outputs is an inference tensor (made inside the @torch.inference_mode() generate); the training forward saves it for backward: "Inference tensors cannot be saved for backward"
# checked: ran, reproduces (CPU; generate/rollout/GRPO step follow model_minimind.py, rollout_engine.py and train_grpo.py before commit bdee223, with the transformer replaced by a tiny embedding+linear model and the loss reduced to the policy-gradient term)
import torch
import torch.nn as nn
import torch.nn.functional as F
from types import SimpleNamespace


class MiniMindForCausalLM(nn.Module):
    def __init__(self, vocab_size=64, hidden_size=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None, past_key_values=None, use_cache=False, logits_to_keep=0, **kwargs):
        logits = self.lm_head(self.embed_tokens(input_ids))
        return SimpleNamespace(logits=logits, past_key_values=None, aux_loss=None)

    @torch.inference_mode()
    def generate(self, inputs=None, attention_mask=None, max_new_tokens=8192, temperature=0.85, top_p=0.85, top_k=50, eos_token_id=2, streamer=None, use_cache=True, num_return_sequences=1, do_sample=True, repetition_penalty=1.0, **kwargs):
        input_ids = kwargs.pop("input_ids", inputs).repeat(num_return_sequences, 1)
        for _ in range(max_new_tokens):
            outputs = self.forward(input_ids, attention_mask)
            logits = outputs.logits[:, -1, :] / temperature
            next_token = torch.multinomial(torch.softmax(logits, dim=-1), num_samples=1) if do_sample else torch.argmax(logits, dim=-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids


class TorchRolloutEngine:
    def __init__(self, policy_model):
        self.policy_model = policy_model

    def rollout(self, prompt_ids, attention_mask, num_generations, max_new_tokens, temperature=0.8):
        model = self.policy_model
        with torch.no_grad():
            output_ids = model.generate(
                input_ids=prompt_ids.repeat_interleave(num_generations, dim=0),
                attention_mask=attention_mask.repeat_interleave(num_generations, dim=0),
                max_new_tokens=max_new_tokens,
                do_sample=True,
                temperature=temperature,
                num_return_sequences=1,
            )  # [B*num_gen, P+R]
            prompt_len = prompt_ids.size(1)
            completion_ids = output_ids[:, prompt_len:]  # [B*num_gen, R]
        return SimpleNamespace(output_ids=output_ids, completion_ids=completion_ids,
                               prompt_lens=prompt_ids.new_full((output_ids.size(0),), prompt_len))


model = MiniMindForCausalLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
rollout_engine = TorchRolloutEngine(model)
num_generations = 4
pad_token_id = 0

prompt_ids = torch.randint(3, 64, (2, 5))
rollout_result = rollout_engine.rollout(prompt_ids, torch.ones_like(prompt_ids), num_generations, 6)
outputs = rollout_result.output_ids
completion_ids = rollout_result.completion_ids
prompt_lens = rollout_result.prompt_lens
full_mask = (outputs != pad_token_id).long()
logp_pos = prompt_lens.unsqueeze(1) - 1 + torch.arange(completion_ids.size(1)).unsqueeze(0)

model_unwrapped = model
res = model_unwrapped(outputs, attention_mask=full_mask)
per_token_logps = F.log_softmax(res.logits[:, :-1, :], dim=-1).gather(2, outputs[:, 1:].unsqueeze(-1)).squeeze(-1).gather(1, logp_pos)
advantages = torch.randn(outputs.size(0))
loss = -(per_token_logps * advantages.unsqueeze(1)).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()
