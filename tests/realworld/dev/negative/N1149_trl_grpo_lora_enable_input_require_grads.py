# source: https://github.com/huggingface/trl/issues/3150
# framework: torch
# family: F
# kind: checkpoint-no-input-requires-grad
# negative: the fix reported by the issue author: call model.enable_input_require_grads() before get_peft_model, so the embedding output requires grad and the reentrant checkpoints see a differentiable input
# mimics: positive/1149_trl_grpo_lora_reentrant_checkpointing.py
# expect: no finding
# checked: ran, no error
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer
from peft import LoraConfig, get_peft_model
from trl import GRPOConfig, GRPOTrainer
from datasets import load_dataset

model_name = "Qwen2.5-7B-Instruct"
batch_size = 2
num_generations = 4

model = AutoModelForCausalLM.from_pretrained(model_name, torch_dtype=torch.bfloat16)
tokenizer = AutoTokenizer.from_pretrained(model_name)
lora_config = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"], task_type="CAUSAL_LM")
model.enable_input_require_grads()
lora_model = get_peft_model(model, lora_config)

training_args = GRPOConfig(output_dir=f"checkpoints/{model_name}/GRPO",
                           learning_rate=1e-5,
                           bf16=True,
                           max_completion_length=2048,
                           max_prompt_length=4096,
                           logging_steps=10,
                           vllm_dtype="bfloat16",
                           per_device_train_batch_size=batch_size,
                           report_to='wandb',
                           num_generations=num_generations,
                           log_completions=True,
                           deepspeed='Rank-R1/ds_zero0_config.json',
                           gradient_checkpointing=True,
                           gradient_checkpointing_kwargs=dict(use_reentrant=True)
                           )


def reward_len(completions, **kwargs):
    return [-abs(200 - len(c)) / 200 for c in completions]


trainer = GRPOTrainer(
    model=lora_model,
    reward_funcs=reward_len,
    args=training_args,
    train_dataset=load_dataset("trl-lib/tldr", split="train"),
    processing_class=tokenizer,
)
trainer.train()
