import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { errorCode } from './error-message';
import { HttpError, notFound } from './http-errors';

export interface StaticAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** packages/dashboard, from src/ (ts-jest) or dist/ (compiled) alike. */
export const dashboardPackageRoot = resolve(__dirname, '..');

export interface AssetDirectories {
  /** Hand-written files: index.html and the stylesheet. */
  readonly staticDirectory: string;
  /** The compiled browser modules. */
  readonly clientDirectory: string;
}

export const defaultAssetDirectories: AssetDirectories = {
  staticDirectory: join(dashboardPackageRoot, 'static'),
  clientDirectory: join(dashboardPackageRoot, 'dist', 'client'),
};

const pages: Record<string, { readonly file: string; readonly contentType: string }> = {
  '/': { file: 'index.html', contentType: 'text/html; charset=utf-8' },
  '/index.html': { file: 'index.html', contentType: 'text/html; charset=utf-8' },
  '/assets/dashboard.css': { file: 'dashboard.css', contentType: 'text/css; charset=utf-8' },
};

/** Only plain module names: no path can leave the client directory. */
const clientModule = /^\/assets\/([a-z0-9-]+\.js)$/;

const readIfPresent = async (file: string): Promise<Buffer | undefined> => {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
};

/** The page, its stylesheet and the compiled modules; anything else is not found. */
export const readStaticAsset = async (
  path: string,
  directories: AssetDirectories = defaultAssetDirectories,
): Promise<StaticAsset> => {
  const page = pages[path];
  if (page !== undefined) {
    const file = join(directories.staticDirectory, page.file);
    const body = await readIfPresent(file);
    if (body === undefined) throw notFound(`${file} is missing from the dashboard package`);
    return { body, contentType: page.contentType };
  }
  const module = clientModule.exec(path)?.[1];
  if (module === undefined) throw notFound(`no asset ${path}`);
  const file = join(directories.clientDirectory, module);
  const body = await readIfPresent(file);
  if (body !== undefined) return { body, contentType: 'text/javascript; charset=utf-8' };
  // The entry module missing means nothing was built; another name is just a wrong URL.
  if (module === 'app.js') throw new HttpError({ code: 'ClientNotBuilt', file });
  throw notFound(`no asset ${path}`);
};
