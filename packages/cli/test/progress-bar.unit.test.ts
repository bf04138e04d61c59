import { renderProgressBar } from '../src/progress-bar';
import { TerminalProgressBar } from '../src/terminal-progress-bar';

describe('renderProgressBar', () => {
  it('fills the bar in proportion and counts done/total', () => {
    expect(renderProgressBar('importing', 6, 24, '', 200)).toBe(`importing [${'#'.repeat(6)}${'.'.repeat(18)}] 6/24`);
  });

  it('shows a full bar for an empty job', () => {
    expect(renderProgressBar('importing', 0, 0, '', 200)).toContain(`[${'#'.repeat(24)}]`);
  });

  it('clips the label from the left so the file name stays visible and the line never wraps', () => {
    const line = renderProgressBar('importing', 1, 2, '/a/very/long/path/to/the/session.v4.jsonl', 60);
    expect(line.length).toBeLessThanOrEqual(59);
    expect(line.endsWith('session.v4.jsonl')).toBe(true);
    expect(line).toContain('…');
  });
});

describe('TerminalProgressBar (cli-progress)', () => {
  it('redraws in place (cursor to column 1, erase to the end of the line) and erases the line when finished', () => {
    const written: string[] = [];
    const bar = new TerminalProgressBar((text) => void written.push(text), 'importing', 80);
    bar.start(2);
    bar.update(1, 'a.jsonl');
    bar.finish();
    const frames = written.join('').split('\u001b[1G').slice(1);
    expect(frames[0]).toMatch(/^importing \[\.+\] 0\/2\u001b\[0K$/);
    expect(frames.some((frame) => frame.includes('1/2 a.jsonl'))).toBe(true);
    expect(frames[frames.length - 1]).toBe('\u001b[2K');
  });
});
