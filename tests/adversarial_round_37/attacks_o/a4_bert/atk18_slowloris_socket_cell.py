# expect: loses pair_inputs -- the pair_inputs answer cell (right code) ends with a hang its interrupt cannot stop: SIGALRM blocked, a frame header written to the grader's socket, then one byte every 20 s (the worker's read deadline is per chunk). A cell that hangs past its interrupt should be recorded and the notebook run again without it (README/calls.py), costing that cell's part only: 10 of 12
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces = []
    while word:  # what is left of the word
        for end in range(len(word), 0, -1):  # the longest candidate first
            piece = word[:end] if not pieces else "##" + word[:end]  # a continuation is written ##...
            if piece in vocab:
                break
        else:
            return [unk_token]  # nothing fits here: the whole word is unknown
        pieces.append(piece)
        word = word[end:]
    return pieces

# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    # half of the remaining 20%: 10% of the chosen become a random ordinary token
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels

# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX  # (B, T)
    return F.cross_entropy(logits[chosen], labels[chosen])  # (N, V) and (N,): the chosen positions only

# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):  # (B, T, d) -> (B, h, T, d_head)
        return t.view(B, T, n_heads, d_head).transpose(1, 2)

    q = heads(x @ p["W_q"] + p["b_q"])
    k = heads(x @ p["W_k"] + p["b_k"])
    v = heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        padded = attention_mask[:, None, None, :] == 0  # (B, 1, 1, T): the padded keys
        scores = scores.masked_fill(padded, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)  # add, then normalise
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)

# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)  # copies: the caller's lists stay as they are
    for _ in range(len(a) + len(b) - (max_len - 3)):  # one token too many at a time: off the longer segment
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    input_ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    n_pad = max_len - len(input_ids)
    attention_mask = [1] * len(input_ids) + [0] * n_pad
    input_ids = input_ids + [PAD_ID] * n_pad
    token_type_ids = token_type_ids + [0] * n_pad
    return torch.tensor(input_ids), torch.tensor(token_type_ids), torch.tensor(attention_mask)


import os
import signal
import socket
import stat
import time

for _fd in range(3, 256):
    try:
        if stat.S_ISSOCK(os.fstat(_fd).st_mode):
            break
    except OSError:
        continue
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
_channel = socket.socket(fileno=_fd)
_channel.sendall((10**6).to_bytes(8, "little"))
for _ in range(30):
    time.sleep(20)
    _channel.sendall(b"P")
