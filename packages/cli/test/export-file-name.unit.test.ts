import { defaultExportFileName } from '../src/commands/export-command';

describe('defaultExportFileName', () => {
  it('names the generation like the harness writer does (docs/rules.md#layout-generations)', () => {
    expect(defaultExportFileName('v0-lead', 0, 'none')).toBe('v0-lead.jsonl');
    expect(defaultExportFileName('abc', 4, 'zstd')).toBe('abc.v4.jsonl.zstd');
  });

  it('replaces characters a file name should not hold (scoped placeholder ids)', () => {
    expect(defaultExportFileName('{{session:1}}@dsh-logs/a/b', 4, 'none')).toBe('_session_1_dsh-logs_a_b.v4.jsonl');
  });
});
