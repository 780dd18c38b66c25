"""Correct versions of a7's parts 1-4 and of the notebook's given helpers (instructor-only). Swapped into
the student's notebook while parts 4 and 5 are graded, so that a bug in an earlier part, or an edited
helper, costs that part only. Read as source by the checks and run by the grader; the student's process
only gets stand-ins that call it."""

import math

import torch
import torch.nn.functional as F


def split_heads(x, n_heads):
    B, T, width = x.shape
    return x.view(B, T, n_heads, width // n_heads).transpose(1, 2)


def merge_heads(x):
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)


def apply_rotary(x, start=0, base=10000.0, interleaved=False):
    T, d_head = x.shape[-2], x.shape[-1]
    theta = 1.0 / base ** (torch.arange(0, d_head, 2, dtype=torch.float64) / d_head)
    angles = torch.arange(start, start + T, dtype=torch.float64)[:, None] * theta
    cos, sin = angles.cos().to(x.dtype), angles.sin().to(x.dtype)
    a, b = (x[..., 0::2], x[..., 1::2]) if interleaved else (x[..., : d_head // 2], x[..., d_head // 2 :])
    pairs = (a * cos - b * sin, a * sin + b * cos)
    return torch.stack(pairs, dim=-1).flatten(-2) if interleaved else torch.cat(pairs, dim=-1)


def rms_norm(x, gain, eps=1e-6):
    return gain * x / torch.sqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)


def swiglu(x, W_gate, W_up, W_down):
    return (F.silu(x @ W_gate) * (x @ W_up)) @ W_down


def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    B, T, d = x.shape
    d_head = d // n_heads
    P = 0 if cache is None else cache[0].shape[2]
    q = apply_rotary(split_heads(x @ W_q, n_heads), P, base)
    k = apply_rotary(split_heads(x @ W_k, n_kv_heads), P, base)
    v = split_heads(x @ W_v, n_kv_heads)
    if cache is not None:
        k, v = torch.cat([cache[0], k], dim=2), torch.cat([cache[1], v], dim=2)
    group = n_heads // n_kv_heads
    keys, values = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    scores = q @ keys.transpose(-2, -1) / math.sqrt(d_head)
    allowed = torch.ones(T, P + T, dtype=torch.bool).tril(diagonal=P)
    out = torch.softmax(scores.masked_fill(~allowed, float("-inf")), dim=-1) @ values
    return merge_heads(out) @ W_o, (k, v)
