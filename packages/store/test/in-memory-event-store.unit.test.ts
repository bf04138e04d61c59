import { InMemoryEventStore } from '@teamlog/store';
import { describeEventStoreConformance } from '@teamlog/store-conformance';

describeEventStoreConformance('InMemoryEventStore', async () => {
  const store = new InMemoryEventStore();
  return { store, dispose: () => store.close() };
});
