/**
 * Iterate one of the client's streaming reads, turning its errors into ours, and closing the
 * client's stream when the consumer stops early.
 */
export async function* iterateClientRead<T>(
  read: AsyncIterable<T>,
  mapError: (error: unknown) => Error,
): AsyncGenerator<T> {
  const iterator = read[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (error) {
        throw mapError(error);
      }
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.()?.catch(() => undefined);
  }
}
