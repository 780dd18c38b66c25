# expect: full marks -- no detach: backward(inputs=...) restricted to the probe's parameters, so nothing reaches the features or their graph; zero_grad(set_to_none=True) first, the optimizer's step, the float loss
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    optimizer.zero_grad(set_to_none=True)
    loss = F.cross_entropy(probe(features), labels, reduction="mean")
    loss.backward(inputs=[p for p in probe.parameters() if p.requires_grad])
    optimizer.step()
    return float(loss.detach())
