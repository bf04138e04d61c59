/** A loaded file of one of teamlog's own packages (its `dist/` or `src/`), not a third-party module. */
const ownModule = /[\\/]packages[\\/][^\\/]+[\\/](dist|src)[\\/]/;

/**
 * How many of teamlog's own files are among `loaded` (a process's `require.cache` keys): 1 when the
 * process runs as one bundle, one per module when it runs the packages' tsc output.
 */
export const ownModulesAmong = (loaded: readonly string[]): number =>
  loaded.filter((path) => ownModule.test(path) && !path.includes('node_modules')).length;

/** `ownModulesAmong` for this process. */
export const ownModulesLoaded = (): number => ownModulesAmong(Object.keys(require.cache));
