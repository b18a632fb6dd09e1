# source: https://github.com/FlagAI-Open/FlagAI/issues/570
# framework: torch
# family: C
# kind: missing-zero-grad
# pitfall: In the fp32 path of Trainer.train_step_pytorch the optimizer.zero_grad() after optimizer.step() is commented out, so gradients accumulate across all training steps.
# expect: line 75 — optimizer.step() (fp32 branch) with no zero_grad anywhere on the path — zero_grad commented out
# checked: ran, reproduces (grad used by 2nd step == 2x single-step grad)
import torch
import torch.nn as nn


class DynamicLossScaler:  # stub for flagai.fp16.loss_scaler
    @staticmethod
    def _has_inf_or_nan(x):
        return not torch.isfinite(x).all()


def log_dist(message, ranks=None):  # stub for flagai.logger
    print(message)


class _Timer:  # stub for flagai timers
    def start(self):
        pass

    def stop(self):
        pass


class Trainer():
    def __init__(self, gradient_accumulation_steps=1, clip_grad=1.0, fp16=False):
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.accumulate_count = 0
        self.clip_grad = clip_grad
        self.fp16 = fp16
        self.timers = lambda name: _Timer()

    def train_step_pytorch(self,
                           data,
                           model,
                           optimizer,
                           lr_scheduler,
                           mems=None):
        """Single training step."""
        # Forward model for one step.
        self.timers('forward').start()
        step_output = self.forward_step(data, model, mems)
        self.timers('forward').stop()
        # accumulate gradients
        lm_loss = step_output['loss']
        lm_loss /= self.gradient_accumulation_steps
        reduced_loss = lm_loss.detach().clone().view(1)
        # skip the iter while loss has NAN
        if not DynamicLossScaler._has_inf_or_nan(reduced_loss):
            # Calculate gradients, reduce across processes, and clip.
            self.timers('backward').start()
            if self.fp16 and hasattr(optimizer, 'backward'):
                optimizer.backward(lm_loss,
                                   update_master_grads=False,
                                   retain_graph=True)
            else:
                lm_loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), self.clip_grad)
            self.timers('backward').stop()

            # Update parameters.
            self.timers('optimizer').start()
            if (self.accumulate_count +
                    1) % self.gradient_accumulation_steps == 0:
                if self.fp16:
                    # optimizer.update_master_grads()
                    optimizer.step()
                    optimizer.zero_grad()
                else:
                    optimizer.step()
                    # optimizer.zero_grad()
                self.accumulate_count = 0
            else:
                self.accumulate_count += 1
            if lr_scheduler:
                lr_scheduler.step()
            self.timers('optimizer').stop()

        else:
            log_dist("Found NaN loss, skip backward", [0])
            del lm_loss, reduced_loss
            mems = None
            reduced_loss = None
        return reduced_loss, mems

    def forward_step(self, data, model, mems=None):
        """Simple forward step. """
        data['mems'] = mems
        model_output = model(**data)
        logits = model_output['logits']
        loss = model_output['loss']
        hidden_states = None
        if 'hidden_states' in model_output:
            hidden_states = model_output['hidden_states']
        elif 'encoder_hidden_states' in model_output:
            hidden_states = model_output['encoder_hidden_states']

        return {
            'loss': loss,
            'hidden_states': hidden_states,
            'logits': logits.contiguous().float()
        }


class TinyModel(nn.Module):  # stub for a FlagAI model returning {'logits', 'loss'}
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, input_ids, labels, mems=None):
        logits = self.fc(input_ids)
        return {'logits': logits, 'loss': nn.functional.cross_entropy(logits, labels)}


if __name__ == "__main__":
    trainer = Trainer(clip_grad=1e9)
    model = TinyModel()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # lr=0 so the same batch yields the same gradient
    seen = []  # .grad right after each backward
    model.fc.weight.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.clone()))
    batch = {'input_ids': torch.randn(8, 4), 'labels': torch.randint(0, 2, (8,))}
    trainer.train_step_pytorch(dict(batch), model, optimizer, None)
    trainer.train_step_pytorch(dict(batch), model, optimizer, None)
    print("grad used by 2nd step == 2 x single-step grad (accumulated):", torch.allclose(seen[1], 2 * seen[0]))
