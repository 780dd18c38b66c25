# expect: loses rel_bucket, noise_mask and span_corruption (control for atk05: the same code without the audit hook silenced; course_lib's import recorded, held)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    return _LIB[0].relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance)
# %% [noise_mask]
def random_spans_noise_mask(length, noise_density=0.15, mean_noise_span_length=3.0, seed=0):
    return _LIB[1].random_spans_noise_mask(
        length, noise_density, mean_noise_span_length, generator=torch.Generator().manual_seed(seed)
    )
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    return _LIB[1].span_corruption(tokens, noise_mask, vocab_size, eos_id)
# %% [new after rel_bucket]
# The audit hook that records the notebook's imports is the grader's Conduct object, in the student's process.
# Its frame walk (Conduct._from_notebook, a staticmethod looked up on each event) is replaced by one that finds
# no notebook frame, so the course library's import is recorded nowhere; then course_lib's modules are kept in
# _LIB. The trace module is reached without an import: the grader's `display` is in the namespace, and
# student_server's globals hold Conduct. The function that does all this is handed to _KEEP.append by its
# decorator and called as _KEEP[0](): no code names _install, so the scan reads its body for no part.
_KEEP = []
_LIB = []


@_KEEP.append
def _install():
    import course_lib.blocks
    import course_lib.t5

    _LIB.extend([course_lib.blocks, course_lib.t5])


_KEEP[0]()
