"""Prints the expected weights of optimizer.test.cpp: torch.optim.Adam and torch.optim.SGD in
float64, three steps on the weights and gradients written here (the test writes the same ones).

Run with Debian's interpreter (python3-torch): /usr/bin/python3 tests/cpp/optimizer_expected.py
"""
import torch

torch.set_default_dtype(torch.float64)

NAMES = ["E", "P", "W_q", "W_k", "W_v", "W_o", "W_r", "b"]
# Each tensor is one row of two: t + 1 and -(t + 1) / 4, for t the place in NAMES.
START = [[t + 1.0, -(t + 1.0) / 4] for t in range(len(NAMES))]
# The gradient of each tensor at step 1; step 2 takes -1/4 of it and step 3 takes 0 (only
# momentum moves the weights then). The gradients span 0 (never moved by Adam), 1e-9 (below
# epsilon), and 1e3.
GRAD = [[1.0, -2.0], [0.0, 1e-9], [1e3, -1e-3], [0.5, 0.25], [-3.0, 0.0], [1e-9, -1e-9], [2.0, 2.0], [-0.125, 7.0]]
FACTOR = [1.0, -0.25, 0.0]


def run(make):
    params = [torch.tensor([row]).requires_grad_() for row in START]
    opt = make(params)
    for f in FACTOR:
        for p, g in zip(params, GRAD):
            p.grad = torch.tensor([g]) * f
        opt.step()
    return [p.detach()[0].tolist() for p in params]


CASES = {
    "adam (defaults)": lambda ps: torch.optim.Adam(ps, lr=0.01),
    "adam (lr 0.2, betas 0.5 0.75, eps 0.1)": lambda ps: torch.optim.Adam(ps, lr=0.2, betas=(0.5, 0.75), eps=0.1),
    "sgd (lr 0.3)": lambda ps: torch.optim.SGD(ps, lr=0.3),
}
for name, make in CASES.items():
    print(f"// {name}, torch {torch.__version__}")
    for n, (a, b) in zip(NAMES, run(make)):
        print(f"  {{{a!r}, {b!r}}},  // {n}")
