// The "Environments across releases" section of docs/performance.md: measured once by hand with
// bench/measure-environments.sh and `benchgrid env list specs/versions_cpu.yaml`, kept here so that
// regenerating the file with `npm run bench` does not drop it.

/** Markdown lines of the section. */
export const ENVIRONMENTS_SECTION: string[] = [
  '## Environments across releases',
  '',
  'Measured 2026-11-30 on this machine (2 cores shared with other work, load average about 16 during the builds, so build times are those of a loaded machine). One full environment of `specs/versions_cpu.yaml` (torch 2.14.1, torchvision 0.29.1, nnsight, torchlens, captum, TransformerLens) is **6.2 GiB**, almost all of it torch. Disk is counted with `du` semantics: allocated blocks, each hard-linked file once.',
  '',
  '| how one more release of a tool is made | disk per extra release | build time of one | first environment |',
  '|---|---|---|---|',
  '| a second pip venv (what one environment per requirement set costs without sharing) | 6.2 GiB | minutes (a full torch install) | 6.2 GiB |',
  '| uv (from PyPI, 2026-11-30) venv, hard-linked from its cache (`--link-mode hardlink`, cache on the same file system) | 72 MiB (torchlens 2.34.1 differing) | 16 s | 5.9 GiB (cache and venv share inodes) |',
  "| **layered venv** (chosen): a venv without pip, a `.pth` to the base's site-packages, only the release installed | 21-126 MiB (table below) | about 30 s (6 layers in 3 min) | the existing 6.2 GiB environment, reused |",
  '',
  "uv and the layers both keep one torch; uv's environments are conventional venvs, but it is a new tool to install, it needs its cache on the environments' file system for hard links, and it cannot reuse an environment pip already built (its first environment is a second 5.9 GiB). The layer reuses the cached environment as it is, needs nothing beyond Python and pip (so a bundle runs it anywhere), and holds every package the spec pins at the base's version by construction. Layers compile bytecode (pip's default), which uv does not; that is most of the difference between 72 MiB and 126 MiB for torchlens 2.34.1 (which also ships a 44 MiB `menagerie` package).",
  '',
  'The layers of `specs/versions_cpu.yaml` as `benchgrid env list` prints them:',
  '',
  '| environment | disk | holds |',
  '|---|---|---|',
  '| main (base) | 6.2 GiB | torch 2.14.1, torchvision 0.29.1, nnsight 0.8.1, torchlens 2.36.1, captum 0.9.0, transformer-lens 4.3.0 |',
  '| main+nnsight-0.6.3 | 57 MiB | nnsight 0.6.3 and the 21 small packages it needs that 0.8.1 does not (ipython, python-socketio, ...) |',
  '| main+nnsight-0.7.0 | 58 MiB | nnsight 0.7.0 and the same |',
  '| main+torchlens-2.33.0 | 21 MiB | torchlens 2.33.0 |',
  '| main+torchlens-2.34.1 | 126 MiB | torchlens 2.34.1 (with its bundled `menagerie`) |',
  '| main+torchlens-2.35.4 | 47 MiB | torchlens 2.35.4 |',
  '| main+captum-0.8.0 | 85 MiB | captum 0.8.0 and numpy 1.26.4 (captum 0.8.0 needs numpy<2) |',
  '| **6 extra releases** | **395 MiB** | beyond the 6.2 GiB main environment (the acceptance bound is 1.5 GiB) |',
  '',
  'torchlens 2.36.1, nnsight 0.8.1 and captum 0.9.0 are the releases `main` pins, so they run in `main` and cost nothing.',
  '',
];
