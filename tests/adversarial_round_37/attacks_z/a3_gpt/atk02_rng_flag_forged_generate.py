# expect: generate 0 deserved (9/11): with a seed, generate reseeds torch's GLOBAL generator (torch.manual_seed(seed))
# and samples from it, where the spec makes a private torch.Generator().manual_seed(seed) and every function "leaves
# torch's, Python's and NumPy's global random states alone". The samples are the same numbers (both generators are
# mt19937 seeded alike); only the reply's `global_rng_moved` tells them apart. That flag is computed in the student's
# process by calls.global_random_state(): `_TORCH_STATE().numpy().tobytes()`, where `get_state` was bound at import
# but `Tensor.numpy` is looked up on the class when it runs. A top-level cell replaces `numpy` on the tensor class
# (reached as `type(torch.empty(0))`, which the scan does not take for a library object): the generator's state, a
# 5,056-byte uint8 tensor, reads as zeros, before and after, and the flag says "not moved".
# %% [new after setup]
import numpy as _np

_TensorClass = type(torch.empty(0))
_library_numpy = _TensorClass.numpy


def _state_as_zeros(self, *args, **kwargs):
    array = _library_numpy(self, *args, **kwargs)
    if self.dtype == torch.uint8 and self.dim() == 1 and self.numel() == 5056:
        return _np.zeros_like(array)
    return array


_TensorClass.numpy = _state_as_zeros
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    if seed is not None:
        torch.manual_seed(seed)  # the global generator, reseeded (the spec: a private one)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1)
        idx = torch.cat([idx, token], dim=1)
    return idx
