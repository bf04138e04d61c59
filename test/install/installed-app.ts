import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PackedTarball } from '@teamlog/test-support/packed-tarball';

/*
 * An empty folder outside the repository where the packed product tarballs are installed the way
 * a user installs them: `npm install` of the tarballs, third-party packages from the registry.
 */

export interface CommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a child run in the folder: nothing of the npm script that may run this test (its package, its prefix). */
export const cleanEnvironment = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([key]) =>
        !/^(npm_package_|npm_lifecycle_|npm_command$|npm_config_local_prefix$|npm_execpath$|INIT_CWD$|TEAMLOG_STORE$)/i.test(
          key,
        ),
    ),
  );

/** Run a command in `cwd`; resolves with its exit code and output, whatever the code. */
export const runCommand = (command: string, args: readonly string[], cwd: string): Promise<CommandResult> =>
  new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env: cleanEnvironment(), maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof error.code !== 'number') reject(error);
      else resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });

const installedVersion = (repoRoot: string, directory: string, name: string): string => {
  const candidates = [
    join(repoRoot, 'packages', directory, 'node_modules', name, 'package.json'),
    join(repoRoot, 'node_modules', name, 'package.json'),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (found === undefined)
    throw new Error(`${name} (a dependency of packages/${directory}) is not installed in the repository: run npm ci`);
  return (JSON.parse(readFileSync(found, 'utf8')) as { version: string }).version;
};

export interface ProductPackage {
  readonly directory: string;
  readonly dependencies: Readonly<Record<string, string>>;
}

/**
 * The folder's package.json: every tarball, and the third-party packages the products depend on
 * pinned to the versions the repository's lockfile tests, so npm takes them from the cache `npm ci`
 * filled (`--prefer-offline`) and the native addon built there fits.
 */
export const appManifest = (
  repoRoot: string,
  tarballDirectory: string,
  tarballs: readonly PackedTarball[],
  products: readonly ProductPackage[],
): object => {
  const overrides: Record<string, string> = {};
  for (const product of products) {
    for (const name of Object.keys(product.dependencies)) {
      if (!name.startsWith('@teamlog/')) overrides[name] = installedVersion(repoRoot, product.directory, name);
    }
  }
  return {
    name: 'teamlog-install-check',
    version: '1.0.0',
    private: true,
    dependencies: Object.fromEntries(
      tarballs.map((tarball) => [tarball.name, `file:${join(tarballDirectory, tarball.filename)}`]),
    ),
    // A TypeScript user's own: the shipped declarations use Node's types.
    devDependencies: { '@types/node': installedVersion(repoRoot, '.', '@types/node') },
    overrides,
  };
};

/**
 * Install scripts do not run (`--ignore-scripts`): better-sqlite3's would download a prebuilt addon
 * from GitHub or compile SQLite for minutes. Its addon is the one the repository's `npm ci` built,
 * for the same version and the same Node. Any other package with an install script fails the test
 * until it is decided here what it needs.
 */
const addonsBuiltInRepository: Readonly<Record<string, string>> = {
  'better-sqlite3': 'build/Release/better_sqlite3.node',
};
// protobufjs's postinstall only warns about version ranges of its dependents.
const scriptsNotNeeded = new Set(['protobufjs']);

const reuseRepositoryAddons = (repoRoot: string, app: string): void => {
  const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.hasInstallScript !== true) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (scriptsNotNeeded.has(name)) continue;
    const addon = addonsBuiltInRepository[name];
    if (addon === undefined)
      throw new Error(
        `${path}@${entry.version} has an install script the install test does not run: say in test/install/installed-app.ts what it needs`,
      );
    const built = join(repoRoot, 'node_modules', name);
    const builtVersion = (JSON.parse(readFileSync(join(built, 'package.json'), 'utf8')) as { version: string }).version;
    if (builtVersion !== entry.version)
      throw new Error(`${name}@${entry.version} installed, but the repository built ${builtVersion}`);
    mkdirSync(join(app, path, addon, '..'), { recursive: true });
    copyFileSync(join(built, addon), join(app, path, addon));
  }
};

/** Write the folder's package.json and install; throws with npm's output when the install fails. */
export const installApp = async (repoRoot: string, app: string, manifest: object): Promise<void> => {
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const installed = await runCommand(
    'npm',
    ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    app,
  );
  if (installed.code !== 0)
    throw new Error(`npm install of the tarballs failed (exit ${installed.code}):\n${installed.stderr}`);
  reuseRepositoryAddons(repoRoot, app);
};
