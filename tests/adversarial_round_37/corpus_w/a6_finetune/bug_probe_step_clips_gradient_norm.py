# expect: loses probe_step -- "the loss is the mean cross-entropy of probe(features) against labels ... clear them (optimizer.zero_grad()) before you back-propagate; then take the optimizer's step": a "stabilising" clip_grad_norm_(..., max_norm=10) sits between backward() and step(), so whenever the gradient's norm passes 10 (features of a few hundred, as an unnormalised encoder's can be, or a big batch of a badly scaled probe) SGD and Adam step on a shrunk gradient; at the visible features' scale the norm stays near 3 and nothing changes
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe on cached features (B, d) and labels (B,): the loss before the step, a float."""
    loss = F.cross_entropy(probe(features.detach()), labels)
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(probe.parameters(), max_norm=10.0)  # keep a bad batch from blowing up the probe
    optimizer.step()
    return loss.item()
