# source: https://github.com/huggingface/accelerate/issues/1299
# framework: torch
# family: D
# kind: misplaced-zero-grad
# negative: inside accelerator.accumulate(model) the prepared optimizer's zero_grad() and step() only act on the synchronising micro-batch, so calling zero_grad() first in the loop (as the official example does) does not discard accumulated gradients
# mimics: zero_grad at the start of every iteration while accumulating gradients
# expect: no finding
# checked: ran, no error (accelerate in a scratch venv)

import torch
from accelerate import Accelerator

accelerator = Accelerator(gradient_accumulation_steps=4)
model = torch.nn.Linear(8, 1)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
training_dataloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(64, 8), torch.randn(64, 1)), batch_size=4)
loss_function = torch.nn.MSELoss()
model, optimizer, training_dataloader, scheduler = accelerator.prepare(model, optimizer, training_dataloader, scheduler)

for batch in training_dataloader:
    with accelerator.accumulate(model):
        optimizer.zero_grad()
        inputs, targets = batch
        outputs = model(inputs)
        loss = loss_function(outputs, targets)
        accelerator.backward(loss)
        optimizer.step()
        scheduler.step()
