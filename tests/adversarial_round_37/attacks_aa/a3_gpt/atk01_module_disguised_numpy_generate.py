# expect: generate 0 deserved (9/11): attacks_z atk02's generate (reseeds the GLOBAL generator). A top-level cell adds
# `numpy` to torch.Tensor's own namespace (inherited from the immutable TensorBase, so a new key) as a property whose
# class claims to be ModuleType: Watch.changed skips new keys that are modules. calls.global_random_state reads
# `_TORCH_STATE().numpy()`: the 5,056-byte generator state reads as zeros before and after, so the digests match.
# %% [new after setup]
import numpy as _np

_ModuleKind = type(torch)
_TensorClass = type(torch.empty(0))
_library_numpy = _TensorClass.numpy


class _Quiet(property):
    @property
    def __class__(self):
        return _ModuleKind


def _numpy_of(self):
    def numpy(*args, **kwargs):
        array = _library_numpy(self, *args, **kwargs)
        if self.dtype == torch.uint8 and self.dim() == 1 and self.numel() == 5056:
            return _np.zeros_like(array)
        return array

    return numpy


_TensorClass.numpy = _Quiet(_numpy_of)
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
