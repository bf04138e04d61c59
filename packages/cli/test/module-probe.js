// Loaded with `node -r` into a `teamlog` process under test: at exit, writes on stderr the files
// the process loaded through require, as one line `module-probe {json}` (paths relative to the
// repository, node_modules/ kept as the prefix of a dependency).
const { relative, resolve } = require('node:path');

const root = resolve(__dirname, '..', '..', '..');

process.on('exit', () => {
  const files = Object.keys(require.cache).map((file) => relative(root, file).split('\\').join('/'));
  process.stderr.write(`module-probe ${JSON.stringify(files)}\n`);
});
