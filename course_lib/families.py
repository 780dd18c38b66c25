"""The contract every model family keeps, and the registry of families.

A family is a model class and its config dataclass (``GPT`` and ``GPTConfig``, ``Llama`` and
``LlamaConfig``, ...). Every family's model (:class:`ModelFamily`):

* is built from its config alone, ``Model(config)``, and keeps it as ``model.config``;
* takes token ids ``input_ids (B, T)`` as its first ``forward`` argument, and ``attention_mask (B, T)``
  (1 = token, 0 = padding) by name; a decoder takes padding on either side, its positions counting
  each row's real tokens (a left-padded prompt reads as it would alone);
* gives ``hidden_states(input_ids, attention_mask=None) -> (B, T, d_model)``: the last block's output
  (after the final norm where the family has one); for an encoder-decoder, the encoder's;
* converts from and to Hugging Face's weights: ``Model.from_hf(state_dict, config)``, ``model.to_hf()``
  (a state dict under the names of :attr:`Family.hf_class`) and ``Model.from_pretrained(directory)``
  (a directory as ``save_pretrained`` writes it: ``config.json`` and the weights).

A checkpoint that does not fit (another depth, width, head count, vocabulary, tying; tensors missing or
left over; a config field the family does not compute) is refused with
:class:`~course_lib.convert.CheckpointMismatch`, whose message names the keys or fields.

:data:`FAMILIES` holds one :class:`Family` per family, keyed by Hugging Face's ``model_type``: adding a
family is its module (keeping the contract) and one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, Self, runtime_checkable

from torch import Tensor, nn

from . import bart, bert, gpt, llama, t5

__all__ = ["FAMILIES", "Family", "Kind", "ModelFamily", "family_of"]

Kind = Literal["decoder", "encoder", "encoder-decoder"]


@runtime_checkable
class ModelFamily(Protocol):
    """What every family's model provides (see the module docstring); ``forward``'s other arguments
    differ by kind (an encoder-decoder also takes ``decoder_input_ids``), so it is not typed here."""

    config: Any

    def hidden_states(self, input_ids: Tensor, attention_mask: Tensor | None = None) -> Tensor:
        """``(B, T, d_model)`` for ``input_ids (B, T)``: the last block's output (an encoder-decoder's encoder's)."""
        ...

    def to_hf(self) -> dict[str, Tensor]:
        """This model's tensors under Hugging Face's names."""
        ...

    @classmethod
    def from_hf(cls, state_dict: Mapping[str, Tensor], config: Any) -> Self:
        """A model of ``config`` with the weights of a Hugging Face state dict that fits it."""
        ...

    @classmethod
    def from_pretrained(cls, directory: str | Path) -> Self:
        """A model from a Hugging Face checkpoint directory (``config.json`` and its weights)."""
        ...


@dataclass(frozen=True)
class Family:
    """One family: our model and config classes, what it computes (``kind``: what ``forward`` returns
    logits for), and its Hugging Face counterpart (``model_type``, the ``transformers`` class whose
    state dict it converts, and the two config converters)."""

    model_type: str
    model: type[ModelFamily]
    config: type
    kind: Kind
    hf_class: str
    config_from_hf: Callable[[Mapping[str, Any]], Any]
    hf_config_kwargs: Callable[[Any], dict[str, Any]]


FAMILIES: dict[str, Family] = {
    family.model_type: family
    for family in (
        Family("gpt2", gpt.GPT, gpt.GPTConfig, "decoder", "GPT2LMHeadModel", gpt.config_from_hf, gpt.hf_config_kwargs),
        Family("bert", bert.Bert, bert.BertConfig, "encoder", "BertModel", bert.config_from_hf, bert.hf_config_kwargs),
        Family(
            "t5",
            t5.T5,
            t5.T5Config,
            "encoder-decoder",
            "T5ForConditionalGeneration",
            t5.config_from_hf,
            t5.hf_config_kwargs,
        ),
        Family(
            "bart",
            bart.Bart,
            bart.BartConfig,
            "encoder-decoder",
            "BartForConditionalGeneration",
            bart.config_from_hf,
            bart.hf_config_kwargs,
        ),
        Family(
            "llama",
            llama.Llama,
            llama.LlamaConfig,
            "decoder",
            "LlamaForCausalLM",
            llama.config_from_hf,
            llama.hf_config_kwargs,
        ),
    )
}


def family_of(model: nn.Module) -> Family:
    """The registered family of ``model`` (an instance of one of :data:`FAMILIES`' model classes)."""
    for family in FAMILIES.values():
        if type(model) is family.model:
            return family
    raise TypeError(
        f"{type(model).__name__} is not a registered model family: "
        f"expected one of {[f.model.__name__ for f in FAMILIES.values()]}"
    )
