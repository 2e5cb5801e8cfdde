"""The hand-written baseline of the harness-fidelity figure: the `raw` single-module cell's forward, timed by
the plainest loop one would write, in a plain Python process of the same environment.

    python bench/handloop.py SHAPE_JSON WARMUPS SAMPLES THREADS MODEL_SEED INPUT_SEED  ->  one JSON line on stdout
"""

import json
import sys
import time

started = time.perf_counter()
import torch  # noqa: E402
import torchvision  # noqa: E402

imported = time.perf_counter()
shape, warmups, samples, threads, model_seed, input_seed = json.loads(sys.argv[1]), *map(int, sys.argv[2:7])
torch.set_num_threads(threads)
torch.manual_seed(model_seed)
model = torchvision.models.resnet18(weights=None).eval()
x = torch.randn(shape, generator=torch.Generator().manual_seed(input_seed))
built = time.perf_counter()
durations = []
with torch.no_grad():
    for _ in range(warmups):
        model(x)
    for _ in range(samples):
        t0 = time.perf_counter_ns()
        model(x)
        durations.append(time.perf_counter_ns() - t0)
done = time.perf_counter()
print(
    json.dumps(
        {
            "samples_ms": [d / 1e6 for d in durations],
            "imports_s": imported - started,
            "build_s": built - imported,
            "work_s": done - built,
        }
    )
)
