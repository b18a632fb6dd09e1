# source: https://github.com/pytorch/pytorch/issues/152088
# framework: torch
# family: E
# kind: where-nan-gradient
# pitfall: log1p is applied to the whole tensor and the invalid entry (a = -1, where log1p is -inf) is removed only afterwards with a boolean mask; the masked-out entry still receives 0 * inf = NaN in backward
# expect: line 12 — torch.log1p(a) is evaluated (and differentiated) at -1 before the mask [a > -1] is applied; the answer points to the known "mask after the unsafe op" problem (as with torch.where): select the valid entries before log1p
# checked: ran, reproduces (a.grad = tensor([nan, 0.6667, 0.5000])); the reproduction verbatim

import torch
def test_bug():
    a = torch.tensor([-1.0, 0.5, 1.0], requires_grad=True)
    l = torch.log1p(a)[a > -1].sum()  # This will include only a[1] and a[2]
    l.backward()
    print(a.grad)
if __name__ == "__main__":
    test_bug()
