# source: https://github.com/nyukat/breast_cancer_classifier/issues/56
# framework: torch
# family: A
# kind: tensor-rewrap
# pitfall: to train with the repository's view-averaged predictions, the user converts the model outputs to NumPy/pandas (as run_model() does for inference), averages them, and wraps the result again with torch.tensor(..., requires_grad=True); the loss then backpropagates into that new leaf only and never reaches the model
# expect: line 50 — torch.tensor(predictions, requires_grad=True) creates a fresh leaf from NumPy values; l.backward() leaves every model parameter without a gradient (the maintainer: "it won't work as you desired to backpropagate through the entire model")
# checked: ran, reproduces (model gradients stay None); the thread's pseudo-code (C-style braces) made valid Python, compute_batch_predictions follows the repository's helper, the stand-in four-view model is reconstructed
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

LABELS_LIST = ["left_benign", "right_benign", "left_malignant", "right_malignant"]
VIEWS = ["L-CC", "R-CC", "L-MLO", "R-MLO"]


class FourViewStub(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({v.replace("-", "_"): nn.Linear(16, 4 * 2) for v in VIEWS})

    def forward(self, x):
        return {v: torch.log_softmax(self.heads[v.replace("-", "_")](x).view(-1, 4, 2), dim=-1) for v in VIEWS}


def compute_batch_predictions(y_hat, mode):
    batch_prediction_tensor_dict = {}
    for label_name, view in [(l, v) for l in range(4) for v in VIEWS]:
        batch_prediction_tensor_dict[(LABELS_LIST[label_name], view)] = y_hat[view][:, label_name]
    batch_prediction_dict = {k: np.exp(v.cpu().detach().numpy()) for k, v in batch_prediction_tensor_dict.items()}
    return batch_prediction_dict


model = FourViewStub()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
loss = nn.BCELoss()
parameters = {"model_mode": "view_split"}
birads_labels = pd.DataFrame({"label": [0.0, 1.0, 0.0, 1.0]})


def run_model(x):
    output = model(x)
    batch_predictions = compute_batch_predictions(output, mode=parameters["model_mode"])
    pred_df = pd.DataFrame({k: v[:, 1] for k, v in batch_predictions.items()})
    pred_df.columns.names = ["label", "view_angle"]
    predictions = pred_df.T.reset_index().groupby("label").mean(numeric_only=True).T[LABELS_LIST].values

    gt = np.transpose(birads_labels['label'].values.reshape(predictions.shape[1], 1))
    gt = torch.tensor(gt, dtype=torch.float, requires_grad=True)
    predictions = torch.tensor(predictions, requires_grad=True)
    l = loss(predictions.float(), gt.expand_as(predictions))
    l.backward()
    optimizer.step()


run_model(torch.randn(1, 16))
