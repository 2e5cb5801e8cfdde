// Writes the schemas' blocks that the protocol table decides (runners/harness/benchgrid_harness/protocol.json):
// `npm run gen:protocol` after changing a row. test/settings/protocol-table.test.ts fails until it has run.
import fs from 'node:fs';
import path from 'node:path';
import { SCHEMA_BLOCKS, withBlock } from '../src/protocol-schema.ts';
import { PROTOCOL_TABLE } from '../src/protocol-table.ts';
import { SCHEMA_DIR } from '../src/repository.ts';

for (const file of new Set(SCHEMA_BLOCKS.map((b) => b.file))) {
  const full = path.join(SCHEMA_DIR, file);
  const before = fs.readFileSync(full, 'utf8');
  const after = SCHEMA_BLOCKS.filter((b) => b.file === file).reduce(
    (text, b) => withBlock(text, b, PROTOCOL_TABLE),
    before,
  );
  if (after !== before) fs.writeFileSync(full, after);
  console.log(`${after === before ? 'unchanged' : 'written'}  schemas/${file}`);
}
