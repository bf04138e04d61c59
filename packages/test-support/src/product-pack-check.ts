import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type WorkspacePackage, isProduct, readManifest, readWorkspacePackages } from './package-manifest';
import { type PackOptions, type PackedTarball, packWorkspaces } from './packed-tarball';
import { releaseManifestProblems } from './release-manifest-problems';
import { tarballProblems } from './tarball-problems';

export interface ProductPackCheck {
  readonly products: readonly WorkspacePackage[];
  readonly tarballs: readonly PackedTarball[];
  /** One line per problem; empty when every product package can be published as packed. */
  readonly problems: readonly string[];
}

/** Pack every product package of the repository at `root` (or only report, without a destination) and check the result. */
export const checkProductPackages = async (root: string, options: PackOptions = {}): Promise<ProductPackCheck> => {
  const workspaces = readWorkspacePackages(root);
  const products = workspaces.filter(isProduct);
  const version = readManifest(join(root, 'package.json')).version;
  const tarballs = await packWorkspaces(
    root,
    products.map((product) => product.directory),
    options,
  );
  const problems = [
    ...releaseManifestProblems(version, workspaces),
    ...products.flatMap((product) => {
      const tarball = tarballs.find((packed) => packed.name === product.manifest.name);
      if (tarball === undefined) return [`${product.manifest.name}: npm pack reported no tarball`];
      return tarballProblems(tarball, product.manifest, (path) =>
        existsSync(join(root, 'packages', product.directory, path)),
      );
    }),
  ];
  return { products, tarballs, problems };
};
