/** The name a new team is given: the one asked for, else the last segment of the Lead's working directory. */
export const teamNameOf = (options: { readonly name?: string; readonly cwd?: string }): string | undefined => {
  const given = options.name?.trim();
  if (given !== undefined && given !== '') return given;
  const segment = options.cwd
    ?.split(/[\\/]+/)
    .filter((part) => part !== '')
    .pop();
  return segment === undefined || segment === '' ? undefined : segment;
};
