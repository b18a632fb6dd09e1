# source: variant of 1048_gradcheck_linear_float32.py
# framework: torch
# family: E
# kind: gradcheck-float32
# pitfall: a unittest gradchecks an nn.Linear layer (float32 weights) on a float32 torch.randn input kept on self from setUp
# expect: line 21 — torch.autograd.gradcheck on the float32 layer and input
# checked: ran, reproduces (GradcheckError Jacobian mismatch in float32; passes after .double() on layer and input)
import unittest

import torch
import torch.nn as nn


class TestLinear(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.layer = nn.Linear(16, 4)
        self.x = torch.randn(5, 16, requires_grad=True)

    def test_grad(self):
        ok = torch.autograd.gradcheck(self.layer, (self.x,), eps=1e-6, atol=1e-4)
        self.assertTrue(ok)


if __name__ == "__main__":
    unittest.main()
