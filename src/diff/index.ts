// The diff's public surface: the pure diff, the report loaders, and what `run --changed-since` calls.
export { diffSpecs, cellsToMeasure, type DiffSide } from './compute.ts';
export { compareFiles, compareWithRevision } from './load.ts';
export { invalidatedCells } from './invalidated.ts';
export { renderTerminal } from './render-terminal.ts';
export { renderMarkdown } from './render-markdown.ts';
export type * from './model.ts';
