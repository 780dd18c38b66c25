# expect: full marks -- reads the features through .data (a new tensor without history, sharing storage, the caller's tensor untouched: same effect as .detach() here), clears the gradients with probe.zero_grad() rather than optimizer.zero_grad() (the optimizer is over the probe's parameters, so both set the same .grad to None), computes the mean cross-entropy with F.nll_loss(F.log_softmax(...)), steps and returns loss.item(); the same weights after 1-5 steps as the key for SGD, SGD with momentum and Nesterov, Adam, AdamW, stale gradients left by an earlier backward, leaf and non-leaf features
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    probe.zero_grad()  # the optimizer's parameters are the probe's: the same gradients cleared
    loss = F.nll_loss(F.log_softmax(probe(features.data), dim=-1), labels)  # .data: no history, nothing changed
    loss.backward()
    optimizer.step()
    return loss.item()
