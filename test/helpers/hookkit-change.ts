// The bench-change command line of the tool author's loop on hookkit (test/source/tool-repo.ts makes the
// repository), shared by the suite's bench-change test and the bench-change campaign (bench/change-campaign.ts).

/** `bench-change SPEC` of hookkit, the repository's main branch against `head`, into `out`. */
export const hookkitChange = (spec: string, head: string, out: string): string[] => [
  'bench-change',
  spec,
  '--tool',
  'hookkit',
  '--base',
  'git:main',
  '--head',
  head,
  '--out',
  out,
];
