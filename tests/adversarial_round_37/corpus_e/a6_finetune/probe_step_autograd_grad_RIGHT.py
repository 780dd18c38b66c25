# expect: full marks -- computes the gradients with torch.autograd.grad and assigns them to .grad (overwriting whatever earlier backward() calls left there, which is what clearing them achieves), then optimizer.step(); the features are cut off with torch.Tensor.detach and the loss is the mean cross-entropy written as log_softmax + nll_loss; spec: "the gradients of earlier steps, or of anything that ran `backward()` through the probe before your step, must not add up with this one" and "return the loss **before** the step, the one you back-propagated, as a Python `float`"
# %% [probe_step]
def probe_step(probe, optimizer, features, labels):
    """One training step of probe (an nn.Linear) on cached features (B, d) and labels (B,): the loss before the step, a float."""
    x = features.detach()  # a new tensor: the caller's features are untouched, no gradient reaches them
    loss = F.nll_loss(F.log_softmax(probe(x), dim=-1), labels)  # the mean cross-entropy
    params = [p for p in probe.parameters() if p.requires_grad]
    grads = torch.autograd.grad(loss, params)
    for p, g in zip(params, grads):
        p.grad = g.detach().clone()  # this step's gradient only
    optimizer.step()
    return float(loss.detach())
