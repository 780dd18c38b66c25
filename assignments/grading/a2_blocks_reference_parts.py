"""Correct versions of a2's part 1 and of the notebook's given helpers (instructor-only). Swapped into
the student's notebook while parts 3 and 4 are graded, so that a bug in part 1, or an edited helper,
costs that part only. Read as source by the checks and run by the grader; the student's process only gets
stand-ins that call it."""

import math

import torch


def layer_norm(x, gain, bias, eps=1e-5):
    mean = x.mean(dim=-1, keepdim=True)
    var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
    return gain * (x - mean) / torch.sqrt(var + eps) + bias


def causal_mask(T):
    return torch.ones(T, T, dtype=torch.bool).tril()


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    B, T_q, d = x_q.shape
    T_k, d_head = x_kv.shape[1], d // n_heads
    q = (x_q @ W_q).view(B, T_q, n_heads, d_head).transpose(1, 2)
    k = (x_kv @ W_k).view(B, T_k, n_heads, d_head).transpose(1, 2)
    v = (x_kv @ W_v).view(B, T_k, n_heads, d_head).transpose(1, 2)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)
    if mask is not None:
        scores = scores.masked_fill(~(mask.unsqueeze(1) if mask.dim() == 3 else mask), float("-inf"))
    return (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T_q, d) @ W_o


def feed_forward(x, W_1, b_1, W_2, b_2):
    return torch.relu(x @ W_1 + b_1) @ W_2 + b_2
