import type { StreamName } from '@teamlog/store';
import { NotifiedHeads, appendedPayload, parseAppendedPayload } from '../src/notified-heads';

const a = 'session-a' as StreamName;
const b = 'session-b' as StreamName;

const listeningHeads = (now: () => number = () => 0): NotifiedHeads => {
  const heads = new NotifiedHeads(1000, now);
  heads.listeningChanged(true);
  return heads;
};

describe('heads a PostgreSQL store knows without reading', () => {
  it('answers a head its own commit or read confirmed, while it listens', () => {
    const heads = listeningHeads();
    heads.confirm(a, 4n, heads.mark());
    heads.confirm(b, undefined, heads.mark());
    expect(heads.get(a)).toEqual({ revision: 4n });
    expect(heads.get(b)).toEqual({ revision: undefined });
  });

  it('answers nothing before its LISTEN connection is up, or after it went down', () => {
    const heads = new NotifiedHeads(1000, () => 0);
    heads.confirm(a, 4n, heads.mark());
    expect(heads.get(a)).toBeUndefined();
    heads.listeningChanged(true);
    heads.confirm(a, 4n, heads.mark());
    heads.listeningChanged(false);
    expect(heads.get(a)).toBeUndefined();
  });

  it("forgets the streams another writer's notification names, and every head when it names none", () => {
    const heads = listeningHeads();
    heads.confirm(a, 4n, heads.mark());
    heads.confirm(b, 2n, heads.mark());
    heads.changedElsewhere([a]);
    expect(heads.get(a)).toBeUndefined();
    expect(heads.get(b)).toEqual({ revision: 2n });
    heads.changedElsewhere(undefined);
    expect(heads.get(b)).toBeUndefined();
  });

  it('does not take a confirmation whose stream another writer was notified for while it was in flight', () => {
    const heads = listeningHeads();
    const since = heads.mark();
    heads.changedElsewhere([a]);
    heads.confirm(a, 4n, since);
    heads.confirm(b, 1n, since);
    expect(heads.get(a)).toBeUndefined();
    expect(heads.get(b)).toEqual({ revision: 1n });
    heads.confirm(a, 5n, heads.mark());
    expect(heads.get(a)).toEqual({ revision: 5n });
  });

  it('reads a head again once it was not confirmed within the trust window', () => {
    let now = 0;
    const heads = listeningHeads(() => now);
    heads.confirm(a, 4n, heads.mark());
    now = 1000;
    expect(heads.get(a)).toEqual({ revision: 4n });
    now = 1001;
    expect(heads.get(a)).toBeUndefined();
  });

  it('names the streams in the notification payload when they fit, and reads both forms back', () => {
    expect(parseAppendedPayload(appendedPayload(42n, [a, b]))).toEqual({ transaction: 42n, streams: [a, b] });
    expect(parseAppendedPayload('42')).toEqual({ transaction: 42n, streams: undefined });
    expect(parseAppendedPayload('not a number')).toEqual({ transaction: undefined, streams: undefined });
    const many = Array.from({ length: 400 }, (_, index) => `session-${'x'.repeat(30)}-${index}` as StreamName);
    expect(appendedPayload(7n, many)).toBe('7');
  });
});
