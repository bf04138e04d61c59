// Loaded with `node -r` into a `teamlog` process under test: at exit, writes on stderr the files
// the process loaded through require (paths relative to the repository, node_modules/ kept as the
// prefix of a dependency) and the Node built-in modules it loaded, as one line
// `module-probe {"files":[...],"builtins":[...]}`, from the main thread. The built-ins show what code inside the bundled
// CLI ran: its modules are in one file, and each requires its built-ins when it first runs.
const { relative, resolve } = require('node:path');

const root = resolve(__dirname, '..', '..', '..');

process.on('exit', () => {
  const files = Object.keys(require.cache).map((file) => relative(root, file).split('\\').join('/'));
  const builtins = process.moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule ') && !entry.startsWith('NativeModule internal/'))
    .map((entry) => entry.slice('NativeModule '.length));
  // A worker thread (the SQLite writer) runs this probe too: only the main thread's line counts.
  // Asked after the list is taken, so the probe's own require does not show in it.
  if (!require('node:worker_threads').isMainThread) return;
  process.stderr.write(`module-probe ${JSON.stringify({ files, builtins })}\n`);
});
