"""Every registered model family keeps the one protocol of :mod:`course_lib.families`.

Oracles: Hugging Face's model of each family (``Family.hf_class``), built with random weights from
its config class (no downloads). For each family, a small model of odd sizes: built from its config,
its forward and ``hidden_states`` agree with Hugging Face's once the weights go across through
``to_hf``, ``from_pretrained`` reads what ``save_pretrained`` writes, and each checkpoint that does not
fit (another depth, width, head count, vocabulary, tying; keys missing or left over) is refused with
``CheckpointMismatch`` naming a key (the checkpoint's, or ours for the same tensor).
"""

from __future__ import annotations

import inspect
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import Tensor

from course_lib.bart import BartConfig
from course_lib.bert import BertConfig
from course_lib.convert import CheckpointMismatch
from course_lib.families import FAMILIES, Family, ModelFamily, family_of
from course_lib.gpt import GPTConfig
from course_lib.llama import LlamaConfig
from course_lib.t5 import T5, T5Config

transformers = pytest.importorskip("transformers")

ODD: dict[str, Any] = {
    "gpt2": GPTConfig(vocab_size=53, block_size=16, n_layers=2, n_heads=3, d_model=24, d_ff=40),
    "bert": BertConfig(vocab_size=53, block_size=16, n_layers=2, n_heads=3, d_model=24, d_ff=40, dropout=0.0),
    "t5": T5Config(vocab_size=53, d_model=20, d_kv=7, d_ff=36, n_layers=2, n_decoder_layers=1, n_heads=3, dropout=0.0),
    "bart": BartConfig(
        vocab_size=53,
        block_size=16,
        n_layers=2,
        n_decoder_layers=1,
        n_heads=3,
        d_model=24,
        d_ff=40,
        dropout=0.0,
        mask_id=52,
    ),
    "llama": LlamaConfig(vocab_size=53, block_size=16, n_layers=2, n_heads=4, n_kv_heads=2, d_model=24, d_ff=40),
}
# A checkpoint of each of these shapes must not load into a model of ODD's: (what differs, its config).
# The head count shows in the tensors only where it sets a shape (T5's heads of d_kv, Llama's key/value
# heads); elsewhere config.json carries it and from_pretrained reads it from there. "tying": a checkpoint
# of ODD's shape whose head is not its embedding, for a model that ties them.
MISFITS: dict[str, list[tuple[str, Any]]] = {
    name: [
        ("depth", replace(config, n_layers=config.n_layers + 1)),
        ("vocabulary", replace(config, vocab_size=57, **({"mask_id": 56} if name == "bart" else {}))),
    ]
    for name, config in ODD.items()
}
MISFITS["gpt2"] += [("width", replace(ODD["gpt2"], d_model=30)), ("tying", ODD["gpt2"])]
MISFITS["bert"].append(("width", replace(ODD["bert"], d_model=30)))
MISFITS["t5"] += [
    ("width", replace(ODD["t5"], d_model=22)),
    ("heads", replace(ODD["t5"], n_heads=4)),
    ("tying", ODD["t5"]),
]
MISFITS["bart"] += [("width", replace(ODD["bart"], d_model=30)), ("tying", ODD["bart"])]
MISFITS["llama"] += [
    ("width", replace(ODD["llama"], d_model=32)),
    ("heads", replace(ODD["llama"], n_kv_heads=4)),
    ("tying", ODD["llama"]),
]


def hf_twin(family: Family, config: Any, seed: int = 0) -> torch.nn.Module:
    """A random-init Hugging Face model of ``config``'s shape (eval mode)."""
    torch.manual_seed(seed)
    hf_config = transformers.AutoConfig.for_model(family.model_type, **family.hf_config_kwargs(config))
    return getattr(transformers, family.hf_class)(hf_config).eval()


def inputs(config: Any) -> tuple[Tensor, Tensor, Tensor]:
    """Token ids ``(3, 9)`` with right padding in two rows, its mask, and decoder ids ``(3, 5)``."""
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(3, config.vocab_size, (3, 9), generator=g)
    mask = torch.ones(3, 9, dtype=torch.long)
    mask[1, 6:] = 0
    mask[2, 2:] = 0
    return ids, mask, torch.randint(3, config.vocab_size, (3, 5), generator=g)


def outputs(family: Family, model: Any, ids: Tensor, mask: Tensor, decoder_ids: Tensor) -> Tensor:
    """What ``forward`` returns: logits (decoders: ids without padding; encoder-decoders: with the
    source's padding) or, for an encoder, the hidden states at the real tokens."""
    with torch.no_grad():
        if family.kind == "decoder":
            return model(ids)
        if family.kind == "encoder-decoder":
            return model(ids, decoder_ids, attention_mask=mask)
        return model(ids, attention_mask=mask)[mask.bool()]


def hf_outputs(family: Family, hf: Any, ids: Tensor, mask: Tensor, decoder_ids: Tensor) -> tuple[Tensor, Tensor]:
    """Hugging Face's counterpart of :func:`outputs`, and its hidden states of ``ids`` under ``mask``
    (decoders: the last layer's; encoders and encoder-decoders: the encoder's)."""
    with torch.no_grad():
        if family.kind == "decoder":
            return hf(input_ids=ids).logits, hf(
                input_ids=ids, attention_mask=mask, output_hidden_states=True
            ).hidden_states[-1]
        if family.kind == "encoder-decoder":
            out = hf(input_ids=ids, attention_mask=mask, decoder_input_ids=decoder_ids)
            return out.logits, out.encoder_last_hidden_state
        hidden = hf(input_ids=ids, attention_mask=mask).last_hidden_state
        return hidden[mask.bool()], hidden


def assert_outputs_match(family: Family, ours: Any, hf: Any, config: Any) -> None:
    """Ours and the Hugging Face model give the same :func:`outputs` on :func:`inputs` of ``config``."""
    ids, mask, decoder_ids = inputs(config)
    torch.testing.assert_close(
        outputs(family, ours, ids, mask, decoder_ids),
        hf_outputs(family, hf, ids, mask, decoder_ids)[0],
        atol=1e-5,
        rtol=1e-4,
    )


@pytest.mark.parametrize("name", FAMILIES)
def test_every_family_keeps_the_protocol(name: str) -> None:
    family, config = FAMILIES[name], ODD[name]
    ours = family.model(config).eval()
    assert (
        isinstance(ours, ModelFamily)
        and isinstance(ours, torch.nn.Module)
        and ours.config is config
        and family_of(ours) is family
    )
    parameters = list(inspect.signature(type(ours).forward).parameters)
    assert parameters[1] == "input_ids" and "attention_mask" in parameters, parameters
    ids, mask, decoder_ids = inputs(config)
    hidden = ours.hidden_states(ids, mask)
    assert hidden.shape == (3, 9, config.d_model)

    hf = hf_twin(family, config, seed=1)
    hf.load_state_dict(ours.to_hf())  # strict: every tensor has its place, none is left out
    theirs, their_hidden = hf_outputs(family, hf, ids, mask, decoder_ids)
    torch.testing.assert_close(outputs(family, ours, ids, mask, decoder_ids), theirs, atol=1e-5, rtol=1e-4)
    real = mask.bool()  # hidden states at padding are computed but mean nothing
    torch.testing.assert_close(hidden[real], their_hidden[real], atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_family_reads_a_saved_hugging_face_checkpoint(name: str, tmp_path: Path) -> None:
    family, config = FAMILIES[name], ODD[name]
    hf = hf_twin(family, config, seed=2)
    hf.save_pretrained(tmp_path)
    ours = family.model.from_pretrained(tmp_path)
    assert isinstance(ours, family.model)
    assert_outputs_match(family, ours.eval(), hf, config)
    other = next(f for f in FAMILIES.values() if f is not family)
    with pytest.raises(CheckpointMismatch, match=f"model_type '{name}'"):
        other.model.from_pretrained(tmp_path)


@pytest.mark.parametrize(
    ("name", "what", "shape"), [(name, what, shape) for name, cases in MISFITS.items() for what, shape in cases]
)
def test_every_family_refuses_a_checkpoint_of_another_shape_naming_its_keys(name: str, what: str, shape: Any) -> None:
    family, config = FAMILIES[name], ODD[name]
    state = hf_twin(family, shape).state_dict()
    if what == "tying":  # a head of its own: one that differs from the embedding
        state = {**state, "lm_head.weight": state["lm_head.weight"] + 0.5}
        # Llama's head is untied by default
        config = replace(config, tie_embeddings=True) if name == "llama" else config
    with pytest.raises(CheckpointMismatch) as refused:
        family.model.from_hf(state, config)
    named = set(state) | set(family.model(config).state_dict())  # the checkpoint's names, or ours for the same tensors
    assert any(key in str(refused.value) for key in named), str(refused.value)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_family_refuses_keys_missing_or_left_over_naming_them(name: str) -> None:
    family, config = FAMILIES[name], ODD[name]
    state = hf_twin(family, config).state_dict()
    with pytest.raises(CheckpointMismatch, match=r"no place for: stray\.weight"):
        family.model.from_hf({**state, "stray.weight": torch.zeros(1)}, config)
    dropped = next(
        key for key in state if "layers.1." in key or "layer.1." in key or ".h.1." in key or "block.1." in key
    )
    with pytest.raises(CheckpointMismatch, match=f"missing: {dropped}"):
        family.model.from_hf({k: v for k, v in state.items() if k != dropped}, config)


def untied_hf_twin(config: Any, seed: int) -> torch.nn.Module:
    """Hugging Face's T5 of an untied ``config``: transformers 5 ties its head at construction
    (tie_word_embeddings=False only stops the rescaling), so the head is given a tensor of its own."""
    hf = hf_twin(FAMILIES["t5"], config, seed=seed)
    hf.lm_head.weight = torch.nn.Parameter(
        torch.randn(hf.lm_head.weight.shape, generator=torch.Generator().manual_seed(seed))
    )
    return hf


def test_an_untied_t5_goes_to_hugging_face_and_back(tmp_path: Path) -> None:
    """An untied T5 (T5 v1.1: a head of its own, no rescaling) both ways: ours to Hugging Face's files,
    read by transformers' own from_pretrained, and a checkpoint transformers 5 saved (its config says
    tie_word_embeddings=true and scale_decoder_outputs=false, its file holds the distinct head) to ours."""
    family, untied = FAMILIES["t5"], replace(ODD["t5"], tie_embeddings=False)
    ours = T5(untied).eval()
    with torch.no_grad():
        ours.lm_head.weight.normal_()
    hf = untied_hf_twin(untied, seed=3)
    hf.load_state_dict(ours.to_hf())
    hf.save_pretrained(tmp_path / "ours")
    theirs = transformers.T5ForConditionalGeneration.from_pretrained(tmp_path / "ours").eval()
    assert not torch.equal(theirs.lm_head.weight, theirs.shared.weight)
    assert_outputs_match(family, ours, theirs, untied)

    saved = untied_hf_twin(untied, seed=4)
    saved.save_pretrained(tmp_path / "theirs")
    config = json.loads((tmp_path / "theirs" / "config.json").read_text())
    assert config.get("scale_decoder_outputs") is False, config  # as transformers 5 writes T5 v1.1
    back = T5.from_pretrained(tmp_path / "theirs").eval()
    assert not back.config.tie_embeddings
    assert_outputs_match(family, back, saved, untied)


def test_a_t5_whose_head_is_its_embedding_unscaled_loads_as_hugging_face_computes_it() -> None:
    """transformers 5's T5 with scale_decoder_outputs=false and no head of its own in the state dict: the
    head is the embedding, not rescaled. Ours loads it as an untied T5 whose head starts as a copy."""
    family, untied = FAMILIES["t5"], replace(ODD["t5"], tie_embeddings=False)
    hf = hf_twin(family, untied, seed=5)  # tied at construction, not rescaled
    state = {k: v for k, v in hf.state_dict().items() if k != "lm_head.weight"}
    config = family.config_from_hf(hf.config.to_dict())
    assert not config.tie_embeddings
    assert_outputs_match(family, T5.from_hf(state, config).eval(), hf, untied)


@pytest.mark.parametrize("name", [name for name, family in FAMILIES.items() if family.kind == "decoder"])
def test_a_decoder_reads_a_left_padded_row_as_the_row_alone(name: str) -> None:
    """Every decoder family takes padding on either side by the same rule: a left-padded row's real
    tokens get the hidden states of the row without its padding (positions count real tokens)."""
    ours = FAMILIES[name].model(ODD[name]).eval()
    ids, mask, _ = inputs(ODD[name])
    left_ids, left_mask = ids.flip(1), mask.flip(1)  # rows 1 and 2 now start with padding
    with torch.no_grad():
        padded = ours.hidden_states(left_ids, left_mask)
        for row in (1, 2):
            n = int(mask[row].sum())
            alone = ours.hidden_states(left_ids[row : row + 1, -n:])
            torch.testing.assert_close(padded[row, -n:], alone[0], atol=1e-5, rtol=1e-4)
