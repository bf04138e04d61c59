import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { isProduct, readWorkspacePackages } from '@teamlog/test-support/package-manifest';
import { type ProductPackCheck, checkProductPackages } from '@teamlog/test-support/product-pack-check';
import { untypedDeclarationImports } from './declaration-imports';
import { appManifest, cleanEnvironment, installApp, runCommand } from './installed-app';

/*
 * A new user's view: every product package packed with `npm pack`, the tarballs installed into an
 * empty folder outside the repository, and there the CLI, the README's library tour, imports from
 * an ES module, the dashboard and the MCP server work. Needs the build (npm test builds first) and the npm registry (or its cache).
 */

const repoRoot = resolve(__dirname, '..', '..');
const minutes = (count: number): number => count * 60 * 1000;

/** The first TypeScript block of README.md's library tour, as a user would copy it. */
const readmeLibraryTour = (): string => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A five-minute tour of the library'));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (match?.[1] === undefined)
    throw new Error('README.md has no ```ts block under "A five-minute tour of the library"');
  return match[1];
};

const tourRunner = `import { tour } from './library-tour';

tour(process.argv[2] as string, process.argv[3] as string).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** The URL `teamlog serve` prints as its first line of stdout. */
const printedUrl = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`teamlog serve exited with ${code} before printing its URL`)));
  });

/** A user's ES module: for each package, the names `require` gives that `import` does not (Node reads them from the CommonJS build). */
const esmNamesCheck = (names: readonly string[]): string => `import { createRequire } from 'module';
const require = createRequire(import.meta.url);
const missing = {};
for (const name of ${JSON.stringify(names)}) {
  const imported = await import(name);
  missing[name] = Object.keys(require(name)).filter((key) => !(key in imported));
}
console.log(JSON.stringify(missing));
`;

/** What a user's tsconfig says: strict, and Node16 resolution (which reads each package's exports). */
const userTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'node16',
    moduleResolution: 'node16',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
    rootDir: 'src',
  },
  include: ['src'],
};

describe('the product packages, packed and installed in an empty folder outside the repository', () => {
  const products = readWorkspacePackages(repoRoot).filter(isProduct);
  let root = '';
  let app = '';
  let logs = '';
  let check: ProductPackCheck | undefined;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'teamlog-install-')));
    app = join(root, 'app');
    logs = join(root, 'logs', 'v0-mailbox');
    mkdirSync(join(root, 'tarballs'));
    mkdirSync(join(app, 'src'), { recursive: true });
    cpSync(join(repoRoot, 'fixtures', 'synthetic', 'v0-mailbox'), logs, { recursive: true });
    check = await checkProductPackages(repoRoot, { destination: join(root, 'tarballs') });
    const dependencies = products.map((product) => ({
      directory: product.directory,
      dependencies: product.manifest.dependencies ?? {},
    }));
    await installApp(repoRoot, app, appManifest(repoRoot, join(root, 'tarballs'), check.tarballs, dependencies));
  }, minutes(10));

  afterAll(() => {
    if (root !== '') rmSync(root, { recursive: true, force: true });
  });

  it('packs every product package, none of them private, and no tarball holds tests, fixtures, bench or stale output', () => {
    expect(root.startsWith(repoRoot)).toBe(false);
    expect(check?.tarballs.map((tarball) => tarball.name).sort()).toEqual(
      products.map((product) => product.manifest.name).sort(),
    );
    expect(products.map((product) => product.directory)).toEqual([
      'cli',
      'dashboard',
      'domain',
      'dsh',
      'events',
      'projections',
      'scripted-host',
      'store',
      'store-eventstoredb',
      'store-postgres',
      'store-sqlite',
      'team',
      'tools',
    ]);
    expect(check?.problems).toEqual([]);
  });

  it(
    'answers npx teamlog --version with the one version',
    async () => {
      const version = await runCommand('npx', ['--no', '--', 'teamlog', '--version'], app);
      expect(version).toEqual({ code: 0, stdout: `${products[0]?.manifest.version}\n`, stderr: '' });
    },
    minutes(5),
  );

  it(
    'replays a historical log with npx teamlog replay',
    async () => {
      const replay = await runCommand(
        'npx',
        ['--no', '--', 'teamlog', 'replay', logs, '--json', '--store', join(app, 'replay.db')],
        app,
      );
      expect(replay.stderr).toBe('');
      expect(replay.code).toBe(0);
      const document = JSON.parse(replay.stdout) as {
        totals: { imported: number; rejected: number };
        teams: Array<{ teamId: string }>;
      };
      expect(document.totals).toMatchObject({ imported: 3, rejected: 0 });
      expect(document.teams.map((team) => team.teamId)).toEqual(['v0-lead']);
    },
    minutes(5),
  );

  it('ships declarations whose every package import resolves to types the user gets', () => {
    expect(
      untypedDeclarationImports(products.map((product) => join(app, 'node_modules', product.manifest.name, 'dist'))),
    ).toEqual([]);
  });

  it(
    "compiles the README's library tour against the installed types, and runs it",
    async () => {
      writeFileSync(join(app, 'src', 'library-tour.ts'), readmeLibraryTour());
      writeFileSync(join(app, 'src', 'main.ts'), tourRunner);
      writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(userTsconfig, null, 2));
      const compiled = await runCommand(
        process.execPath,
        [join(repoRoot, 'node_modules', 'typescript', 'lib', 'tsc.js'), '-p', app],
        app,
      );
      expect(compiled.stdout).toBe('');
      expect(compiled.code).toBe(0);

      const ran = await runCommand(process.execPath, [join(app, 'out', 'main.js'), join(app, 'tour.db'), logs], app);
      expect(ran.stderr).toBe('');
      const printed = ran.stdout.trimEnd().split('\n');
      expect(printed[0]).toMatch(/^3 logs imported, [1-9]\d* events appended$/);
      expect(printed[1]).toBe("v0-lead [ 'reviewer', 'writer', 'tester' ] 1 undelivered");
      const messageId = printed[2]?.split(' ')[0];
      expect(printed[2]).toBe(`${messageId} [ '${messageId} pending' ]`);
    },
    minutes(5),
  );

  it(
    'gives an ES module every name that require gives, for every product package',
    async () => {
      const names = products.map((product) => product.manifest.name);
      writeFileSync(join(app, 'esm-names.mjs'), esmNamesCheck(names));
      const checked = await runCommand(process.execPath, [join(app, 'esm-names.mjs')], app);
      expect(checked.stderr).toBe('');
      expect(JSON.parse(checked.stdout)).toEqual(Object.fromEntries(names.map((name) => [name, []])));
    },
    minutes(5),
  );

  it(
    'serves the dashboard page, its stylesheet and its browser code with teamlog serve',
    async () => {
      const store = join(app, 'serve.db');
      expect(
        (await runCommand('npx', ['--no', '--', 'teamlog', 'replay', logs, '--json', '--store', store], app)).code,
      ).toBe(0);
      // The installed bin itself (what npx runs), so that stopping it stops the server.
      const server = spawn(join(app, 'node_modules', '.bin', 'teamlog'), ['serve', '--store', store, '--port', '0'], {
        cwd: app,
        env: cleanEnvironment(),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const url = await printedUrl(server);
        for (const [path, type] of [
          ['', 'text/html'],
          ['assets/dashboard.css', 'text/css'],
          ['assets/app.js', 'javascript'],
        ] as const) {
          const response = await fetch(`${url}${path}`);
          expect({ path, status: response.status, type: response.headers.get('content-type') }).toEqual({
            path,
            status: 200,
            type: expect.stringContaining(type),
          });
        }
      } finally {
        server.kill('SIGINT');
      }
    },
    minutes(5),
  );

  it(
    "lists teamlog mcp's tools to an MCP client",
    async () => {
      const store = join(app, 'team.db');
      const demo = await runCommand('npx', ['--no', '--', 'teamlog', 'demo', '--store', store, '--json'], app);
      expect(demo.code).toBe(0);
      const { teamId } = (JSON.parse(demo.stdout) as { demo: { teamId: string } }).demo;
      const transport = new StdioClientTransport({
        command: 'npx',
        args: ['--no', '--', 'teamlog', 'mcp', '--session', teamId, '--store', store],
        cwd: app,
        env: cleanEnvironment() as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'install-check', version: '1.0.0' });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name);
        expect(tools).toEqual(expect.arrayContaining(['send_message', 'read_inbox', 'list_members', 'spawn_member']));
      } finally {
        await client.close();
      }
    },
    minutes(5),
  );
});
