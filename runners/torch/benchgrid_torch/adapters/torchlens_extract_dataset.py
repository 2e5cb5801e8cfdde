"""torchlens `tl.extract_dataset`: batched extraction of a layer over a stimulus set, in memory."""

import torch
import torchlens as tl


def ordered_dataset_features(ctx):
    """The site's outputs over the stimuli, in batches of the dataset's batch size, in order."""
    model, site, device = ctx.model, ctx.site, ctx.device
    # extract_dataset batches one stimulus tensor itself; the harness's batches are consecutive slices of it.
    stimuli = torch.cat(ctx.batches)
    batch_size = len(ctx.batches[0])

    def run():
        # progress=False: the tqdm bar is display, not extraction. The result is a CPU copy by design
        # (torchlens/_extraction/engine.py stores `stored.detach().cpu()`), whatever `device` is.
        features = tl.extract_dataset(model, stimuli, [site], batch_size=batch_size, device=device, progress=False)
        return features[site]

    return run
