# expect: loses split_merge -- split_heads is right for its 2 visible calls, then returns a plain reshape (wrong contents) and writes garbage into every socket or pipe the student process holds (the channel to the trusted worker): a corrupt channel is the student's doing, so a lost part, not "not graded"
# %% [split_merge]
import os
import stat

_calls = [0]


def _jam():
    for fd in range(3, 256):
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            continue
        if stat.S_ISSOCK(mode) or stat.S_ISFIFO(mode):
            try:
                os.write(fd, b"\xff" * 64 + b"\x00" * 64 + b"garbage")
            except OSError:
                pass


def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head)."""
    _calls[0] += 1
    B, T, d_model = x.shape
    if _calls[0] > 2:
        _jam()
        return x.reshape(B, n_heads, T, d_model // n_heads)  # WRONG contents
    return x.reshape(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head)."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)
