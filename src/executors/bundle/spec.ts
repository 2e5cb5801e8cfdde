// The spec and plan of a bundle, rebuilt from its resolved data (spec.json) and its own runner copies:
// ingest needs no YAML file and no runners of the machine it runs on.
import path from 'node:path';
import { planSpec, type Plan } from '../../plan/expand.ts';
import { adapterLookup, readManifest, type Manifest } from '../../spec/manifests.ts';
import { digestOf, normalise } from '../../spec/normalise.ts';
import type { Spec } from '../../spec/types.ts';
import type { BundleManifest } from './manifest.ts';
import { readBundleSpecData } from './parse.ts';
import { dict } from '../../util/dict.ts';
import { containedFile } from '../../util/files.ts';

/** A bundle's spec, plan and runner manifests. */
export interface BundleSpec {
  spec: Spec;
  plan: Plan;
  manifests: Record<string, Manifest | Error>;
  /** sha256 of spec.json's data: equals the manifest's digest unless the bundle was edited. */
  digest: string;
}

/** Normalises spec.json into a Spec whose runners are the bundle's copies, and plans it. */
export function loadBundleSpec(dir: string, manifest: BundleManifest): BundleSpec {
  const file = containedFile(dir, path.join(dir, 'spec.json'));
  const data = readBundleSpecData(file);
  const spec = normalise(data, file, [manifest.spec.file], new Map());
  const manifests = dict<Manifest | Error>();
  for (const runner of manifest.runners) {
    spec.runners[runner] = path.join(dir, 'runners', runner);
    manifests[runner] = readManifest(spec.runners[runner]);
  }
  const plan = planSpec(spec, adapterLookup(manifests));
  return { spec, plan, manifests, digest: digestOf(data) };
}
