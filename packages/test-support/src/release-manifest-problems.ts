import { type PackageManifest, type WorkspacePackage, isProduct } from './package-manifest';

/*
 * What a product package.json must say before it is packed: the fields a user and the registry
 * read, one version for every package, and no dependency a user could not install (a private
 * package is never published).
 */

const requiredFields = (manifest: PackageManifest): string[] => [
  ...(manifest.description === undefined ? ['description'] : []),
  ...(manifest.license === undefined ? ['license'] : []),
  ...(manifest.repository === undefined ? ['repository'] : []),
  ...(manifest.engines?.node === undefined ? ['engines.node'] : []),
  ...(manifest.files === undefined ? ['files'] : []),
  ...(typeof manifest.exports !== 'object' || !hasTypedRoot(manifest.exports)
    ? ['exports["."] with "types" and "default"']
    : []),
];

const hasTypedRoot = (exports: Record<string, unknown>): boolean => {
  const root = exports['.'];
  return typeof root === 'object' && root !== null && 'types' in root && 'default' in root;
};

const dependencyProblems = (
  workspace: WorkspacePackage,
  version: string,
  privateNames: ReadonlySet<string>,
): string[] =>
  Object.entries(workspace.manifest.dependencies ?? {}).flatMap(([name, range]) => [
    ...(privateNames.has(name)
      ? [`${workspace.manifest.name}: depends on ${name}, which is private (never published)`]
      : []),
    ...(name.startsWith('@teamlog/') && range !== version
      ? [`${workspace.manifest.name}: depends on ${name}@${range}, not the one version ${version}`]
      : []),
  ]);

/** Every problem of the workspace's manifests, one line each; empty when they can be packed. */
export const releaseManifestProblems = (version: string, workspaces: readonly WorkspacePackage[]): string[] => {
  const privateNames = new Set(
    workspaces.filter((workspace) => !isProduct(workspace)).map((workspace) => workspace.manifest.name),
  );
  return workspaces.flatMap((workspace) => [
    ...(workspace.manifest.version === version
      ? []
      : [`${workspace.manifest.name}: version ${workspace.manifest.version}, not the one version ${version}`]),
    ...(isProduct(workspace)
      ? [
          ...requiredFields(workspace.manifest).map(
            (field) => `${workspace.manifest.name}: package.json has no ${field}`,
          ),
          ...dependencyProblems(workspace, version, privateNames),
        ]
      : []),
  ]);
};
