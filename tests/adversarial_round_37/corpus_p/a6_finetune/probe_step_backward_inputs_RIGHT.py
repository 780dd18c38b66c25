# expect: full marks -- leaves the features attached but back-propagates only into the probe's parameters (loss.backward(inputs=...)), so nothing reaches the cached features or what they were computed from; the loss is computed by hand as logsumexp minus the labels' logits, averaged
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    logits = features @ probe.weight.T + probe.bias  # (B, C)
    picked = logits.gather(1, labels[:, None]).squeeze(1)  # (B,)
    loss = (torch.logsumexp(logits, dim=1) - picked).mean()
    optimizer.zero_grad()
    loss.backward(inputs=[probe.weight, probe.bias])  # the probe's gradients only
    optimizer.step()
    return loss.item()
