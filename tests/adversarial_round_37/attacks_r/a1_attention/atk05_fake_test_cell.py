# expect: 8/12: part 1 unanswered (stub); the added cell that carries test_sdpa's metadata (grade, 100 points, solution, locked, checksum) and pre-filled "passed" outputs gives nothing
# %% [sdpa]
def scaled_dot_product_attention(q, k, v, mask=None):
    raise NotImplementedError()
