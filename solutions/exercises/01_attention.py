"""Instructor solutions to the exercises of chapter 1, attention (book/01_attention.md).

Every exercise here runs in well under a second of CPU time; ``quick`` only shrinks the samples.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path
from typing import Any

import torch

from course_lib import attention as att
from course_lib.seeding import set_seed

from _runner import main


def _softmax_statistics(scores: torch.Tensor, queries: torch.Tensor) -> dict[str, float]:
    """What section 1.4 measures on a batch of scores ``(N, n_keys)``, and the gradient that reaches
    the queries ``(N, d_k)`` (which require grad) through the softmax, for a random upstream gradient."""
    p = torch.softmax(scores, dim=-1)
    n_keys = p.shape[-1]
    p2, p3 = (p**2).sum(-1), (p**3).sum(-1)
    jacobian = (p2 - 2 * p3 + p2**2).clamp_min(0).sqrt()  # Frobenius norm of diag(p) - p p^T, per row
    entropy = -(p * p.clamp_min(1e-30).log()).sum(-1) / math.log(n_keys)  # 1 = uniform over the keys
    (query_grad,) = torch.autograd.grad((p * torch.randn_like(p)).sum(), queries)
    return {
        "variance": scores.var().item(),
        "largest_weight": p.max(-1).values.mean().item(),
        "saturated": (p.max(-1).values > 0.99).float().mean().item(),
        "entropy_share": entropy.mean().item(),
        "jacobian_median": jacobian.median().item(),
        "query_grad_median": query_grad.norm(dim=-1).median().item(),
    }


def exercise_1(quick: bool = False) -> dict[str, Any]:
    """Scaling by d_k instead of sqrt(d_k).

    Dividing by d_k over-corrects. The dot product of unit-variance vectors has variance d_k, so the
    scores q.k / d_k have variance 1 / d_k: about 0.2 at d_k = 4 and 0.001 at d_k = 1024 (with
    sqrt(d_k) it stays at 1). The softmax of nearly equal scores is nearly uniform: the largest of
    the 64 weights falls to about 0.017, barely above 1/64 = 0.016, the entropy of the rows reaches
    that of the uniform distribution, and no row ever saturates. So the failure is the opposite of
    section 1.4's: every query returns about the same average of all the values, whatever it asks for.

    This is also bad for learning, though the softmax's own Jacobian stays healthy (about 0.12 at
    every width, the value for a uniform row over 64 keys: a uniform softmax passes gradient back
    well). What shrinks is the step from the scores back to the queries and keys: d s / d q = k / d_k,
    a vector of length about sqrt(d_k) / d_k = 1 / sqrt(d_k). The gradient that reaches a query is
    therefore about 0.055 at d_k = 4 and 0.004 at d_k = 1024, some 40 times smaller than with
    sqrt(d_k) scaling (about 0.17 at every width). To make attention selective at all, training must
    grow the queries and keys until q.k is of order d_k, with gradients that shrink as the width
    grows. Dividing by sqrt(d_k) is the one power that keeps both the scores' variance and the
    queries' gradient independent of the width.
    """
    set_seed(0)
    widths = [4, 16, 64, 256] if quick else [4, 16, 64, 128, 256, 1024]
    n_queries, n_keys = (200 if quick else 2000), 64
    results: dict[str, dict[int, dict[str, float]]] = {"sqrt": {}, "d_k": {}}
    for d_k in widths:
        queries = torch.randn(n_queries, d_k, requires_grad=True)
        keys = torch.randn(n_keys, d_k)
        for name, divisor in (("sqrt", d_k**0.5), ("d_k", float(d_k))):
            results[name][d_k] = _softmax_statistics(queries @ keys.T / divisor, queries)
    for name in results:
        print(f"divide by {name}:")
        for d_k, row in results[name].items():
            print(f"  d_k = {d_k:5d}: " + ", ".join(f"{k} {v:.4f}" for k, v in row.items()))
    small, large = widths[0], widths[-1]
    by_d = results["d_k"]
    assert all(abs(by_d[d]["variance"] * d - 1) < 0.5 for d in widths), "the variance should be about 1 / d_k"
    assert by_d[large]["largest_weight"] < 1.5 / n_keys and by_d[large]["entropy_share"] > 0.99, (
        "the rows become uniform"
    )
    assert max(by_d[d]["saturated"] for d in widths) == 0, "no row saturates"
    assert all(0.08 < by_d[d]["jacobian_median"] < 0.2 for d in widths), (
        "the softmax's Jacobian stays that of a near-uniform row"
    )
    shrink = by_d[small]["query_grad_median"] / by_d[large]["query_grad_median"]
    assert 0.3 * math.sqrt(large / small) < shrink < 3 * math.sqrt(large / small), (
        "the query's gradient shrinks as 1 / sqrt(d_k)"
    )
    assert results["sqrt"][large]["query_grad_median"] > 10 * by_d[large]["query_grad_median"]
    return {
        name: {d: {k: round(v, 5) for k, v in row.items()} for d, row in rows.items()} for name, rows in results.items()
    }


def _lookup(d: int = 24) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Section 1.1's table, drawn the same way from the chapter's seed: six keys of width ``d``
    and length sqrt(d) in random directions, the values 0..5 ``(6, 1)``, and a query that is a
    noisy copy of key 2."""
    set_seed(0)
    directions = torch.randn(6, d)
    keys = directions / directions.norm(dim=-1, keepdim=True) * math.sqrt(d)
    values = torch.arange(6.0)[:, None]
    query = keys[2] + 0.3 * torch.randn(d)
    return keys, values, query


def exercise_2(quick: bool = False) -> dict[str, Any]:
    """Temperature.

    Divide the scaled scores by tau before the softmax (``scale=1 / (sqrt(24) tau)``). In the
    chapter's lookup (seed 0, as the book is built; keys of width 24 and length sqrt(24)) key 2 gets
    0.977 of the weight at tau = 1 and the output is 2.01. As tau falls the weight on key 2 rises
    towards 1: above 0.99 from about tau = 0.8 down, and at tau = 0.1 the output is 2.00, exactly a
    dictionary lookup. As tau rises the weight falls towards 1/6: at tau = 10 key 2 keeps 0.26, no
    key gets less than 0.13, and the output, 2.44, is close to the plain average of the six values
    (2.5). The weight on the best-matching key can only fall as tau grows. Where the crossover lies
    depends on the spread of the scores: key 2 scores sqrt(24) = 4.9 (its squared length over
    sqrt(24)), the others about 0 +- 1, so the lookup is hard for tau below about 1 and an average
    once tau is well above 5; here the weight on key 2 drops below one half between tau = 3.2 and
    3.5. Other seeds (COURSE_SEED_OFFSET) give the same picture: below one half between tau = 2.5
    and 3.5, at tau = 10 every weight between 0.11 and 0.29 and the output between 2.2 and 2.6.
    The full run saves the figure of the weight on key 2 against tau (log axis) to the system's
    temporary folder.
    """
    keys, values, query = _lookup()
    taus = torch.logspace(-1, 1, 9 if quick else 41).tolist()
    weight_on_2, outputs, smallest = [], [], []
    for tau in taus:
        out, w = att.scaled_dot_product_attention(
            query[None], keys, values, scale=1 / (math.sqrt(keys.shape[-1]) * tau)
        )
        weight_on_2.append(w[0, 2].item())
        outputs.append(out.item())
        smallest.append(w[0].min().item())
    half = next(t for t, w in zip(taus, weight_on_2) if w < 0.5)
    if not quick:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(5, 3), layout="constrained")
        ax.plot(taus, weight_on_2, "o-", label="weight on key 2")
        ax.axhline(1 / 6, color="grey", linestyle=":", label="uniform, 1/6")
        ax.set(xscale="log", xlabel="temperature tau", ylabel="weight")
        ax.legend()
        figure = Path(tempfile.gettempdir()) / "temperature.png"
        fig.savefig(figure)
        plt.close(fig)
        print(f"figure: {figure}")
    for tau, w, o in zip(taus, weight_on_2, outputs):
        print(f"tau {tau:6.2f}: weight on key 2 {w:.3f}, output {o:.2f}")
    assert all(a >= b - 1e-6 for a, b in zip(weight_on_2, weight_on_2[1:])), "the best key's weight falls as tau grows"
    assert weight_on_2[0] > 0.95 and abs(outputs[0] - 2) < 0.1, "a low temperature is a hard lookup"
    assert weight_on_2[-1] < 0.35 and smallest[-1] > 0.08 and abs(outputs[-1] - 2.5) < 0.5, (
        "a high one averages all values"
    )
    return {
        "tau": [round(t, 3) for t in taus],
        "weight_on_key_2": [round(w, 4) for w in weight_on_2],
        "output": [round(o, 3) for o in outputs],
        "smallest_weight": [round(w, 4) for w in smallest],
        "first_tau_below_half": round(half, 3),
    }


def exercise_3(quick: bool = False) -> dict[str, Any]:
    """Masks by hand.

    ``causal_mask(3, 6)`` takes the 3 queries to be the last 3 positions (3, 4, 5) of a 6-token
    sequence, so query row i may see keys 0 .. i + 3:

        query 3:  1 1 1 1 0 0
        query 4:  1 1 1 1 1 0
        query 5:  1 1 1 1 1 1

    It is the bottom three rows of the square ``causal_mask(6)``: the diagonal of the square mask
    is shifted right by T_k - T_q = 3. Such a mask is needed whenever new queries attend to keys
    that include earlier positions held elsewhere: generating with a KV cache, where the P cached
    positions' keys are joined by the T new ones' and the new queries need ``causal_mask(T, P + T)``
    (chapter 3's DecoderBlock builds exactly that), and more generally feeding a long text in chunks
    (a prompt's prefill, a model that scores several drafted tokens at once).
    """
    mask = att.causal_mask(3, 6)
    for i, row in enumerate(mask.int().tolist()):
        print(f"query {i + 3}: " + " ".join(map(str, row)))
    assert torch.equal(mask, att.causal_mask(6)[3:]), "the last three rows of the square mask"
    assert mask.sum(-1).tolist() == [4, 5, 6]
    # the same attention computed in one pass over 6 positions or in a pass over the last 3 with the rectangular mask
    set_seed(0)
    x = torch.randn(1, 6, 8)
    full, _ = att.scaled_dot_product_attention(x, x, x, att.causal_mask(6))
    last, _ = att.scaled_dot_product_attention(x[:, 3:], x, x, mask)
    assert torch.allclose(full[:, 3:], last, atol=1e-6), "the rectangular mask gives the last rows of the full pass"
    return {"mask": mask.int().tolist(), "difference_from_full_pass": (full[:, 3:] - last).abs().max().item()}


def _one_hot_inputs(words: list[str]) -> tuple[torch.Tensor, list[str], int]:
    """Each token's vector: a one-hot code of its word, then a one-hot code of its position, in
    blocks of ``d_head`` features so that each head can read both."""
    vocab = sorted(set(words))
    d_head = max(len(words), len(vocab))
    x = torch.zeros(1, len(words), 3 * d_head)
    for t, word in enumerate(words):
        x[0, t, vocab.index(word)] = 1.0
        x[0, t, len(vocab) + t] = 1.0
    return x, vocab, d_head


def exercise_4(quick: bool = False) -> dict[str, Any]:
    """A third head that attends to the next token.

    Give the attention three heads (d_model = 3 d_head). Head 2's keys carry the position code, as
    head 0's do (``k_proj.weight[2 d_head + t, V + t] = 1``), and its query projection maps the
    position code of t onto the key code of t + 1 (``q_proj.weight[2 d_head + t + 1, V + t] =
    sharp``); its values are the word codes. Under the causal mask this head cannot work: key t + 1 is in the future, so
    each query's scores are all equal and it spreads its weight evenly over positions 0..t (weight 0 on t + 1).
    The causal mask has to go, at least for that head: ``MultiHeadAttention`` takes a mask of shape
    (B, h, T, T), so heads 0 and 1 can keep theirs while head 2 sees everything. (Dropping the
    causal mask for all heads would also change head 1, whose "same word" then includes later
    occurrences: "the" at position 0 would attend to the "the"s at 4 and 6.) With the mask lifted,
    head 2 puts more than 0.99 of its weight on position t + 1 for every t but the last, whose next
    token does not exist (it attends evenly to all).

    For a language model this is cheating: the token at t + 1 is the target at position t, and
    this head copies it into position t's output (the word code of t + 1 can be read off head 2's
    output exactly). Trained without the causal mask, a model learns to copy, its training loss
    drops to almost zero, and it is useless for generation, where the next token is not there to
    be read. A bidirectional encoder (BERT, chapter 4) may look ahead because its task hides the
    tokens it must predict in another way, by masking them in the input.
    """
    words = ["the", "cat", "sat", "on", "the", "mat", "the", "cat", "ran"]  # section 1.6's sentence
    x, vocab, d_head = _one_hot_inputs(words)
    T, V, sharp = len(words), len(vocab), 30.0  # score sharp / sqrt(d_head) = 10: nearly one-hot weights
    mha = att.MultiHeadAttention(3 * d_head, n_heads=3, bias=False)
    with torch.no_grad():
        for projection in (mha.q_proj, mha.k_proj, mha.v_proj, mha.out_proj):
            projection.weight.zero_()
        for t in range(T):  # keys of heads 0 and 2 carry the position code
            mha.k_proj.weight[t, V + t] = 1.0
            mha.k_proj.weight[2 * d_head + t, V + t] = 1.0
        for t in range(1, T):  # head 0: previous position
            mha.q_proj.weight[t - 1, V + t] = sharp
        for t in range(T - 1):  # head 2: next position
            mha.q_proj.weight[2 * d_head + t + 1, V + t] = sharp
        for w in range(V):  # head 1: same word
            mha.q_proj.weight[d_head + w, w], mha.k_proj.weight[d_head + w, w] = sharp, 1.0
        for head in range(3):  # every head's value is the word code of the token it attends to
            for w in range(V):
                mha.v_proj.weight[head * d_head + w, w] = 1.0
        mha.out_proj.weight.copy_(torch.eye(3 * d_head))
    causal = att.causal_mask(T)
    _, masked = mha(x, mask=causal, need_weights=True)  # (1, 3, T, T)
    per_head = torch.stack([causal, causal, torch.ones(T, T, dtype=torch.bool)])[None]  # (1, h, T, T)
    out, lifted = mha(x, mask=per_head, need_weights=True)
    next_weight = [lifted[0, 2, t, t + 1].item() for t in range(T - 1)]
    read_off = out[0, :, 2 * d_head : 2 * d_head + V].argmax(-1)  # head 2's output, word features
    copied = [vocab[int(i)] for i in read_off[:-1]]
    print(
        "head 2, causal mask: weight on the next token", [round(masked[0, 2, t, t + 1].item(), 3) for t in range(T - 1)]
    )
    print("head 2, its mask lifted: weight on the next token", [round(w, 3) for w in next_weight])
    print("the word read off head 2's output at each position:", copied)
    assert all(masked[0, 2, t, t + 1] == 0 for t in range(T - 1)), "under the causal mask the next token is invisible"
    assert min(next_weight) > 0.99, "with its mask lifted head 2 attends to the next token"
    assert copied == words[1:], "head 2's output holds the next word: the target a language model must predict"
    assert all(masked[0, h, t].argmax() == lifted[0, h, t].argmax() for h in (0, 1) for t in range(T)), (
        "heads 0 and 1 keep their causal mask"
    )
    return {
        "weight_on_next_causal": [masked[0, 2, t, t + 1].item() for t in range(T - 1)],
        "weight_on_next_lifted": next_weight,
        "next_word_read_off": copied,
    }


EXERCISES = {1: exercise_1, 2: exercise_2, 3: exercise_3, 4: exercise_4}

if __name__ == "__main__":
    main(EXERCISES)
