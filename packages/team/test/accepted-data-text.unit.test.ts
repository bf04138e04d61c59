import { acceptedDataText } from '../src/accepted-data-text';

/* The hand-built text of an acceptance is JSON.stringify's, byte for byte, or nothing. */

const acceptance = (texts: readonly string[], senderName = 'sender-1') => ({
  teamId: '01a235de-303d-7092-8ec0-07d91977a9d1',
  list: 'next-turn',
  message: {
    id: '01a235de-30d8-71d6-b941-3906aadc801f',
    role: 'user',
    content: texts.map((text) => ({ type: 'text', text })),
    source: {
      kind: 'team-relay',
      form: 'relay',
      senderSessionId: '01a235de-304c-7687-a7c1-12c3a4409ec4',
      senderName,
    },
  },
});

describe('acceptedDataText', () => {
  it.each([
    ['plain text', ['Team message from sender-1:', 'please review the parser patch']],
    ['quotes, backslashes and controls', ['say "hi"', 'C:\\dir', 'line\nbreak\ttab\u0000\u001f\b\f\r']],
    ['non-ASCII, paired and lone surrogates', ['héllo ✓ 🎉', 'lone \ud800 high', 'lone \udc00 low', '\u2028\u2029']],
    ['an empty text', ['Team message from sender-1:', '']],
    ['one plain block', ['just one block']],
    ['one block that needs escaping', ['say "hi"\n']],
  ])('writes what JSON.stringify writes for %s', (_, texts) => {
    const data = acceptance(texts);
    expect(acceptedDataText(data)).toBe(JSON.stringify(data));
  });

  it('writes what JSON.stringify writes for a team id and a message id that need escaping', () => {
    const data = acceptance(['x']);
    const escaped = { ...data, teamId: 'team "one"', message: { ...data.message, id: 'id\\\u0001' } };
    expect(acceptedDataText(escaped)).toBe(JSON.stringify(escaped));
  });

  it('writes what JSON.stringify writes for a sender name that needs escaping', () => {
    const data = acceptance(['x'], 'the "quoted" one\\');
    expect(acceptedDataText(data)).toBe(JSON.stringify(data));
  });

  it('leaves a message with a block that is not plain text to JSON.stringify', () => {
    const data = acceptance(['x']);
    const withImage = {
      ...data,
      message: { ...data.message, content: [...data.message.content, { type: 'image', attachment: {} }] },
    };
    expect(acceptedDataText(withImage)).toBeUndefined();
  });

  it('leaves a text block with a key besides type and text to JSON.stringify', () => {
    const data = acceptance(['x']);
    const extra = { ...data, message: { ...data.message, content: [{ type: 'text', text: 'x', cache: true }] } };
    expect(acceptedDataText(extra)).toBeUndefined();
  });

  it('leaves keys in another order to JSON.stringify (its text would differ)', () => {
    const data = acceptance(['x']);
    const reordered = { list: data.list, teamId: data.teamId, message: data.message };
    expect(acceptedDataText(reordered)).toBeUndefined();
  });

  it('leaves a value that is not a string, or an object that is not plain, to JSON.stringify', () => {
    const data = acceptance(['x']);
    expect(acceptedDataText({ ...data, list: 7 })).toBeUndefined();
    expect(acceptedDataText({ ...data, teamId: undefined })).toBeUndefined();
    expect(acceptedDataText(Object.assign(Object.create({ inherited: 1 }), data))).toBeUndefined();
    expect(acceptedDataText({ ...data, message: { ...data.message, content: [undefined] } })).toBeUndefined();
    expect(acceptedDataText(null)).toBeUndefined();
  });

  it("writes a frozen sender part's text once and reuses it, byte for byte, for every message that shares it", () => {
    const data = acceptance(['Team message from sender-1:', 'first']);
    const source = Object.freeze({ ...data.message.source });
    const heading = Object.freeze({ type: 'text', text: 'Team message from sender-1:' });
    const first = {
      ...data,
      message: { ...data.message, source, content: [heading, { type: 'text', text: 'first' }] },
    };
    const second = {
      ...data,
      list: 'next-step',
      message: { ...data.message, source, content: [heading, { type: 'text', text: 'second "one"' }] },
    };
    expect(acceptedDataText(first)).toBe(JSON.stringify(first));
    expect(acceptedDataText(second)).toBe(JSON.stringify(second));
  });

  it('reads a frozen sender part once for all the messages that share it (its text is kept)', () => {
    const data = acceptance(['x']);
    let reads = 0;
    const source = Object.freeze({
      kind: 'team-relay',
      form: 'relay',
      senderSessionId: data.message.source.senderSessionId,
      get senderName() {
        reads += 1;
        return 'sender-1';
      },
    });
    const message = (id: string) => ({ ...data, message: { ...data.message, id, source } });
    const texts = ['01a235de-30d8-71d6-b941-3906aadc8010', '01a235de-30d8-71d6-b941-3906aadc8011'].map((id) =>
      acceptedDataText(message(id)),
    );
    expect(texts).toEqual([
      JSON.stringify(message('01a235de-30d8-71d6-b941-3906aadc8010')),
      JSON.stringify(message('01a235de-30d8-71d6-b941-3906aadc8011')),
    ]);
    const readsByStringify = 2;
    expect(reads - readsByStringify).toBe(2);
  });

  it('writes the text of a sender part that is not frozen anew each time, so a change to it shows', () => {
    const data = acceptance(['x']);
    const source = { ...data.message.source };
    const first = { ...data, message: { ...data.message, source } };
    expect(acceptedDataText(first)).toBe(JSON.stringify(first));
    source.senderName = 'renamed';
    expect(acceptedDataText(first)).toBe(JSON.stringify(first));
  });
});
