"""course_lib.plotting: the heatmaps label the right axes and refuse mismatched input."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from course_lib.plotting import plot_attention, plot_attention_heads, plot_token_rows  # noqa: E402


def test_plot_attention_labels_queries_on_rows_and_keys_on_columns() -> None:
    weights = torch.softmax(torch.randn(2, 3), dim=-1)
    ax = plot_attention(weights, ["a", "b"], ["x", "y", "z"], title="t", annotate=True)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x", "y", "z"]
    np.testing.assert_allclose(ax.images[0].get_array(), weights.numpy())
    assert len(ax.texts) == 6 and ax.get_title() == "t"
    plt.close("all")


@pytest.mark.parametrize(
    "weights, queries, keys, message",
    [
        (torch.rand(2, 3), ["a"], None, "query_labels has 1 labels for 2 positions"),
        (torch.rand(2, 3), None, ["x", "y"], "key_labels has 2 labels for 3 positions"),
        (torch.rand(1, 2, 3), None, None, r"shape \(T_q, T_k\)"),
    ],
)
def test_plot_attention_rejects_mismatches(weights, queries, keys, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        plot_attention(weights, queries, keys)


def test_plot_attention_heads_draws_one_panel_per_head() -> None:
    weights = torch.softmax(torch.randn(5, 3, 3), dim=-1)
    fig = plot_attention_heads(weights, ncols=2)
    drawn = [ax for ax in fig.axes if ax.images]
    assert len(drawn) == 5 and len(fig.axes) == 6
    assert [ax.get_title() for ax in drawn] == [f"head {i}" for i in range(5)]
    with pytest.raises(ValueError, match=r"\(h, T_q, T_k\)"):
        plot_attention_heads(torch.rand(3, 3))
    plt.close("all")


def test_plot_token_rows_wraps_rows_and_colours_the_marked_tokens() -> None:
    fig = plot_token_rows([("input", ["a", "b", "c", "d", "e"], [0, 1, 1, 0, 2]), ("target", ["x"], [1])], width=3)
    ax = fig.axes[0]
    boxes = {t.get_text(): t.get_bbox_patch().get_facecolor() for t in ax.texts if t.get_bbox_patch() is not None}
    assert set(boxes) == {"a", "b", "c", "d", "e", "x"}
    assert boxes["a"][:3] == (1.0, 1.0, 1.0) and boxes["b"] == boxes["c"] == boxes["x"] != boxes["e"]
    labels = [t.get_text() for t in ax.texts if t.get_bbox_patch() is None]
    assert labels == ["input", "", "target"]  # "input" wraps onto a second line of its own
    plt.close(fig)
    with pytest.raises(ValueError, match="2 tokens but 1 colours"):
        plot_token_rows([("x", ["a", "b"], [0])])
