#!/usr/bin/env python3
"""Training speed of oxo's network in PyTorch: the reference `oxo bench train` is compared with.

Builds the residual net a `model.json` describes (the same layers as crates/nn/src/net.rs:
a 3x3 or patch stem with batch norm, residual blocks of two 3x3 convolutions with batch norm,
a policy head and a win/draw/loss value head, the score head where the model has one), and
trains it on random planes with the loss and optimiser oxo trains with (policy and
win/draw/loss cross-entropy against soft targets, score squared error; AdamW, learning rate
1e-3, weight decay 1e-4), at one batch size, on a given number of threads or on a CUDA GPU
(`--device cuda`). Prints one JSON object: samples per second, and the FLOP rate counted as
oxo counts it (three forward passes a sample, `crates/train/src/bench.rs`).

    python3 scripts/bench_torch_train.py models/ultimate/model.json --batch 128 --threads 1

Needs `pip install torch` (it is not in scripts/setup.sh: oxo itself never uses it).
"""

import argparse
import json
import time

import torch
from torch import nn
from torch.nn import functional as F


class ConvNorm(nn.Module):
    """A convolution without bias followed by batch norm, as oxo's `ConvNorm`."""

    def __init__(self, cin, cout, kernel, stride=1):
        super().__init__()
        pad = kernel // 2 if stride == 1 else 0
        self.conv = nn.Conv2d(cin, cout, kernel, stride=stride, padding=pad, bias=False)
        # burn's BatchNorm: epsilon 1e-5, momentum 0.1, as PyTorch's defaults.
        self.norm = nn.BatchNorm2d(cout)

    def forward(self, x):
        return self.norm(self.conv(x))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.first = ConvNorm(c, c, 3)
        self.second = ConvNorm(c, c, 3)

    def forward(self, x):
        return F.relu(self.second(F.relu(self.first(x))) + x)


class ResNet(nn.Module):
    """oxo's ResNet (crates/nn/src/net.rs) for `network` of a model.json."""

    def __init__(self, network, planes, height, width, actions):
        super().__init__()
        c, p = network["channels"], network["patch"]
        pc, vc, hidden = network["policy_channels"], network["value_channels"], network["value_hidden"]
        self.patch = p
        cells = height * width // (p * p)
        self.stem = ConvNorm(planes, c, 3) if p == 1 else ConvNorm(planes, c, p, stride=p)
        self.blocks = nn.Sequential(*[Block(c) for _ in range(network["blocks"])])
        self.policy_conv = ConvNorm(c, pc, 1)
        # Per cell: one linear layer over the flattened features; patch stem: each block's
        # vector gives its own p*p cells (a 1x1 convolution, then the blocks back to cells).
        self.policy_out = nn.Linear(pc * cells, actions) if p == 1 else nn.Conv2d(pc, p * p, 1)
        self.value_conv = ConvNorm(c, vc, 1)
        self.value_hidden = nn.Linear(vc * cells, hidden)
        self.wdl_out = nn.Linear(hidden, 3)
        self.score_out = nn.Linear(hidden, 1) if network["score_head"] else None

    def forward(self, x):
        x = self.blocks(F.relu(self.stem(x)))
        features = F.relu(self.policy_conv(x))
        if self.patch == 1:
            policy = self.policy_out(features.flatten(1))
        else:
            logits = self.policy_out(features)  # [batch, p*p, h, w]
            b, _, h, w = logits.shape
            p = self.patch
            policy = logits.view(b, p, p, h, w).permute(0, 3, 1, 4, 2).reshape(b, -1)
        hidden = F.relu(self.value_hidden(F.relu(self.value_conv(x)).flatten(1)))
        score = self.score_out(hidden) if self.score_out is not None else None
        return policy, self.wdl_out(hidden), score


def forward_flops(network, planes, height, width, actions):
    """Multiply-adds times two of one forward pass, counted as crates/train/src/bench.rs does."""
    c, p = network["channels"], network["patch"]
    pc, vc, hidden = network["policy_channels"], network["value_channels"], network["value_hidden"]
    block = p * p
    cells = height * width / block

    def conv(cin, cout, k):
        return 2.0 * k * cin * cout * cells

    stem = conv(planes, c, 9.0) if p == 1 else conv(planes, c, block)
    trunk = stem + network["blocks"] * 2.0 * conv(c, c, 9.0)
    policy_out = 2.0 * pc * cells * actions if p == 1 else 2.0 * pc * block * cells
    policy = conv(c, pc, 1.0) + policy_out
    value = conv(c, vc, 1.0) + 2.0 * vc * cells * hidden + 2.0 * hidden * 4.0
    return trunk + policy + value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_json", help="a model.json (e.g. models/ultimate/model.json)")
    parser.add_argument("--batch", type=int, default=128)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--device", default="cpu", help="cpu, or cuda for an NVIDIA GPU")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    with open(args.model_json) as f:
        model = json.load(f)
    network = model["network"]
    _, planes, height, width = model["input"]["shape"]
    actions = model["actions"]["count"]
    device = torch.device(args.device)
    net = ResNet(network, planes, height, width, actions).to(device)
    net.train()
    optimiser = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)

    n = args.batch
    generator = torch.Generator().manual_seed(3)
    inputs = (torch.rand(n, planes, height, width, generator=generator) < 0.3).float().to(device)
    policy_target = torch.full((n, actions), 1.0 / actions, device=device)
    wdl_target = torch.tensor([[0.0, 1.0, 0.0]], device=device).repeat(n, 1)
    score_target = torch.zeros(n, 1, device=device)
    # A GPU runs the steps asynchronously: wait for them before reading the clock.
    sync = torch.cuda.synchronize if device.type == "cuda" else lambda: None

    def step():
        policy, wdl, score = net(inputs)
        loss = -(F.log_softmax(policy, 1) * policy_target).sum(1).mean()
        loss = loss - (F.log_softmax(wdl, 1) * wdl_target).sum(1).mean()
        if score is not None:
            loss = loss + F.mse_loss(score, score_target)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()

    step()
    sync()
    start = time.perf_counter()
    samples = 0
    while time.perf_counter() - start < args.seconds:
        step()
        samples += n
    sync()
    rate = samples / (time.perf_counter() - start)
    flops = 3.0 * rate * forward_flops(network, planes, height, width, actions)
    print(json.dumps({
        "engine": f"pytorch {torch.__version__}", "variant": model["variant"], "batch": n,
        "threads": args.threads, "device": args.device, "samples_per_sec": rate, "flops": flops,
    }))


if __name__ == "__main__":
    main()
