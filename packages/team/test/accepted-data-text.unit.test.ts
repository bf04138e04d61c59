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
  ])('writes what JSON.stringify writes for %s', (_, texts) => {
    const data = acceptance(texts);
    expect(acceptedDataText(data)).toBe(JSON.stringify(data));
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
});
