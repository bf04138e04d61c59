// A stand-in for a running agent harness, for the `teamlog watch` tests: plays a script of file
// operations on a sessions root, in order, as the harness's writer would (appends, a torn write
// in two appends, a migrated generation published by rename), then exits 0:
//   harness-writer-child.js <script.json>
// The script is a JSON array of { op: 'append', file, base64 } | { op: 'rename', from, to } | { op: 'sleep', ms }.
const { appendFileSync, mkdirSync, readFileSync, renameSync } = require('node:fs');
const { dirname } = require('node:path');

const operations = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

(async () => {
  for (const operation of operations) {
    if (operation.op === 'append') {
      mkdirSync(dirname(operation.file), { recursive: true });
      appendFileSync(operation.file, Buffer.from(operation.base64, 'base64'));
    } else if (operation.op === 'rename') renameSync(operation.from, operation.to);
    else if (operation.op === 'sleep') await sleep(operation.ms);
    else throw new Error(`unknown operation ${JSON.stringify(operation)}`);
  }
})().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
