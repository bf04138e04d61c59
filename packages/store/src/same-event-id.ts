/** Whether two event ids are the same id: stores may give ids back in another case (EventStoreDB's come back lower-case). */
export const sameEventId = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
