# expect: every part 0 and graded (the answer key, each function raising TimeoutError at once on every hidden call: the jailed key answers within half the limit)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if relative_position.dtype.is_signed:  # the dtype's least value has no negation in it; that far, one bucket
        relative_position = relative_position.clamp(min=torch.iinfo(relative_position.dtype).min + 1)
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2  # half the buckets for keys before the query, half for keys after it
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)  # keys after the query count as distance 0
    max_exact = num_buckets // 2  # the distances below it are buckets of their own
    is_small = distance < max_exact
    # logarithmically wider buckets from max_exact to max_distance, truncated toward zero
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)


def _hidden_raises(f, test='_test_rel_bucket'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


relative_position_bucket = _hidden_raises(relative_position_bucket)

# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    """T5's noise mask: a torch.bool tensor (length,), True at the noise tokens."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    num_noise = min(max(round(length * noise_density), 1), length - 1)
    num_spans = max(round(num_noise / mean_noise_span_length), 1)

    def random_segmentation(num_items, num_segments):
        """A uniformly random cut of num_items into num_segments non-empty parts: their lengths."""
        cuts = torch.randperm(num_items - 1, generator=generator)[: num_segments - 1]  # the gaps cut at
        first_in_segment = torch.zeros(num_items, dtype=torch.long)
        first_in_segment[cuts + 1] = 1
        return torch.bincount(torch.cumsum(first_in_segment, 0), minlength=num_segments)

    noise_lengths = random_segmentation(num_noise, num_spans)
    nonnoise_lengths = random_segmentation(length - num_noise, num_spans)
    interleaved = torch.stack([nonnoise_lengths, noise_lengths], dim=1).reshape(-1)  # non-noise first
    span_starts = torch.cumsum(interleaved, 0)[:-1]
    start_indicator = torch.zeros(length, dtype=torch.long)
    start_indicator[span_starts] = 1
    return torch.cumsum(start_indicator, 0) % 2 == 1  # odd spans are noise


def _hidden_raises(f, test='_test_noise_mask'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


random_spans_noise_mask = _hidden_raises(random_spans_noise_mask)

# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    def one_sentinel_per_span(mask):
        previous = torch.cat([mask.new_zeros(1), mask[:-1]])  # whether the token before is in a span too
        first = mask & ~previous  # the first token of each span
        sentinels = vocab_size - torch.cumsum(first.long(), 0)  # vocab_size - 1, vocab_size - 2, ...
        replaced = torch.where(first, sentinels, tokens)
        return torch.cat([replaced[~(mask & previous)], tokens.new_tensor([eos_id])])  # the rest of each span dropped

    return one_sentinel_per_span(noise_mask), one_sentinel_per_span(~noise_mask)


def _hidden_raises(f, test='_test_span_corruption'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


span_corruption = _hidden_raises(span_corruption)

# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    inner = tokens[1:-1]  # BOS and EOS are never noised
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])  # the last span cut to the budget
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[: len(lengths)]] = True
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for span in is_span.tolist():
        if span:  # one mask for the whole span; its tokens are skipped
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        else:  # the next kept token
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    return torch.cat(out)


def _hidden_raises(f, test='_test_text_infilling'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


text_infilling = _hidden_raises(text_infilling)

# %% [cross_attention]
def cross_attention_step(x, memory, p, n_heads, memory_mask=None, cache=None):
    """T5's cross-attention for the newest decoder position x (B, 1, d_model) over memory (B, S, d_model).
    Returns (out (B, 1, d_model), cache (k, v), each (B, n_heads, S, d_kv))."""
    B = x.shape[0]
    d_kv = p["W_q"].shape[1] // n_heads

    def heads(t):  # (B, T, n_heads * d_kv) -> (B, n_heads, T, d_kv)
        return t.view(B, t.shape[1], n_heads, d_kv).transpose(1, 2)

    if cache is None:  # the first step: the source is projected once
        cache = (heads(memory @ p["W_k"]), heads(memory @ p["W_v"]))
    k, v = cache
    q = heads(x @ p["W_q"])  # (B, h, 1, d_kv)
    scores = q @ k.transpose(-2, -1)  # (B, h, 1, S): T5 does not scale
    if memory_mask is not None:
        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)
    return attended @ p["W_o"], cache


def _hidden_raises(f, test='_test_cross_attention'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


cross_attention_step = _hidden_raises(cross_attention_step)

# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = beam_scores[:, None] + log_probs  # (k, V): every extension of every beam
    extended = extended.masked_fill(finished[:, None], float("-inf"))  # a finished beam is never extended...
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # ... but carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)  # over beams and tokens together
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)


def _hidden_raises(f, test='_test_beam_search'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


beam_search_step = _hidden_raises(beam_search_step)

