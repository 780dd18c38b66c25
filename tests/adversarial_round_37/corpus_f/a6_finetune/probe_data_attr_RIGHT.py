# expect: full marks -- feeds features.data (a new tensor sharing the storage, outside autograd: nothing flows back and the caller's tensor keeps its requires_grad and grad_fn), computes the mean cross-entropy as nll_loss of log_softmax, clears the gradients with set_to_none before backward, and returns float(loss.detach())
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    optimizer.zero_grad(set_to_none=True)
    loss = F.nll_loss(F.log_softmax(probe(features.data), dim=-1), labels)
    loss.backward()
    optimizer.step()
    return float(loss.detach())
