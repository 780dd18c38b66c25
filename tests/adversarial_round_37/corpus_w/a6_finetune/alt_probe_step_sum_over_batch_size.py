# expect: full marks -- the summed cross-entropy divided by the batch size is the mean cross-entropy (same value, same gradient); the gradients are cleared with probe.zero_grad(), which clears exactly the parameters the optimizer steps (it is over the probe's parameters), before backward; the features enter through .detach() (no gradient reaches them, the caller's tensor untouched); the loss returned as a float
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = probe(features.detach())
    loss = F.cross_entropy(logits, labels, reduction="sum") / labels.shape[0]
    probe.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
