/** Server-internal records ($stats, $metadata, projections, links): never teamlog events. */
export const isSystemEvent = (event: { readonly streamId: string; readonly type: string }): boolean =>
  event.streamId.startsWith('$') || event.type.startsWith('$');
