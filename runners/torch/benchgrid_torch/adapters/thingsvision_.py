"""thingsvision: a feature extractor around the subject's own model (`get_extractor_from_model`)."""

from thingsvision import get_extractor_from_model


def _extractor(ctx):
    """The extractor wrapping ctx.model as it is (thingsvision's own builders would construct a new model)."""
    # get_extractor(model_name, source, pretrained) builds the network itself from a name; handing it our
    # model is what keeps the weights the reference ran. It only moves the model to `device` and calls eval().
    return get_extractor_from_model(model=ctx.model, device=str(ctx.device), backend="pt")


def single_module_output(ctx):
    """The site's output for one batch through `batch_extraction(...).extract_batch`."""
    extractor, site, x = _extractor(ctx), ctx.site, ctx.inputs

    def run():
        with extractor.batch_extraction(module_name=site, output_type="tensor") as batch_extractor:
            return batch_extractor.extract_batch(batch=x, flatten_acts=False)

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches from `extract_features`, concatenated in order."""
    extractor, site, batches = _extractor(ctx), ctx.site, ctx.batches

    def run():
        # Features come back as CPU tensors (thingsvision/core/extraction/torch.py moves each batch's
        # activations to the host); tqdm and print report progress on stdout/stderr.
        return extractor.extract_features(batches=batches, module_name=site, flatten_acts=False, output_type="tensor")

    return run
