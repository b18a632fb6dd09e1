# source: https://github.com/ASTRAL-Group/ASTRA/issues/1
# framework: torch
# family: A
# kind: conversion-on-loss-path
# pitfall: the adversarial image (clean image + learnable noise) is passed through the Qwen2-VL image processor, which converts the tensor to a NumPy array, so the jailbreak loss has no gradient with respect to the noise
# expect: line 22 — the HF image processor turns adv_image into NumPy (and back), cutting the graph between the loss and noise
# checked: parse only (needs transformers and the Qwen2.5-VL checkpoint)

import torch
from transformers import AutoProcessor, Qwen2_5_VLForConditionalGeneration

model = Qwen2_5_VLForConditionalGeneration.from_pretrained("Qwen/Qwen2.5-VL-7B-Instruct", torch_dtype=torch.float16)
processor = AutoProcessor.from_pretrained("Qwen/Qwen2.5-VL-7B-Instruct")
image = torch.rand(3, 448, 448)
noise = torch.zeros_like(image, requires_grad=True)
optimizer = torch.optim.Adam([noise], lr=1 / 255)
prompt = "<|vision_start|><|image_pad|><|vision_end|>Describe the image."
target = "Sure, here is"

for step in range(500):
    adv_image = torch.clamp(image + noise, 0, 1)
    inputs = processor(images=adv_image, text=prompt + target, return_tensors="pt")
    outputs = model(**inputs, labels=inputs["input_ids"])
    loss = outputs.loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        noise.clamp_(-16 / 255, 16 / 255)
