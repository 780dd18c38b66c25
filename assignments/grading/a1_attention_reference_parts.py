"""Correct versions of a1's parts 1-3 (instructor-only). Swapped into the student's notebook while
part 4 (multi-head attention) is graded, so that a bug in an earlier part costs that part only.
Read as source and run by the grader; the student's process only gets stand-ins that call it."""

import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    scores = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    if mask is None:
        weights = torch.softmax(scores, -1)
    else:
        has_key = mask.any(-1, keepdim=True)
        weights = torch.softmax(scores.masked_fill(~mask & has_key, float("-inf")), -1).masked_fill(~has_key, 0.0)
    return weights @ v, weights


def causal_mask(T):
    return torch.ones(T, T).tril().bool()


def padding_mask(lengths, T):
    return (torch.arange(T)[None, :] < lengths[:, None])[:, None, :]


def split_heads(x, n_heads):
    B, T, d_model = x.shape
    return x.reshape(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
