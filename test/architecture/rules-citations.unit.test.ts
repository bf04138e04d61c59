import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repositoryRoot } from './package-graph';

/*
 * docs/rules.md is where the rules the code enforces are stated; code, tests and docs cite its
 * anchors (`docs/rules.md#recovery-damaged-tail`, or `rules.md#...` between docs). Every citation
 * must name an anchor that exists, and nothing cites sections of an outside document any more.
 */

const sectionSign = '\u00a7';
const rulesFile = join(repositoryRoot, 'docs', 'rules.md');

const textFiles = (directory: string): string[] =>
  !existsSync(directory)
    ? []
    : readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
        const path = join(directory, entry.name);
        if (entry.isDirectory()) return ['node_modules', 'dist', '.git'].includes(entry.name) ? [] : textFiles(path);
        return /\.(ts|js|mjs|cjs|md|sql|sh|json)$/.test(entry.name) && entry.name !== 'package-lock.json' ? [path] : [];
      });

const citingFiles = (): string[] => [
  ...['packages', 'test', 'docs', 'migrations', 'scripts', '.ci'].flatMap((directory) =>
    textFiles(join(repositoryRoot, directory)),
  ),
  ...['README.md', 'CHANGELOG.md', '.ci/run'].map((file) => join(repositoryRoot, file)).filter(existsSync),
];

/** The anchors docs/rules.md defines (`<a id="x">` or a heading's `{#x}`). */
export const anchorsOf = (markdown: string): string[] =>
  [...markdown.matchAll(/<a id="([^"]+)"><\/a>|\{#([A-Za-z0-9_-]+)\}/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  );

/** The anchors a text cites, with their line numbers. */
export const citationsOf = (text: string): Array<{ anchor: string; line: number }> =>
  text.split('\n').flatMap((line, index) =>
    [...line.matchAll(/(?:^|[^A-Za-z0-9_-])rules\.md#([A-Za-z0-9_-]+)/g)].map((match) => ({
      anchor: match[1] as string,
      line: index + 1,
    })),
  );

describe('docs/rules.md and its citations', () => {
  const anchors = anchorsOf(readFileSync(rulesFile, 'utf8'));
  const files = citingFiles();

  it('gives each rule one anchor, never two rules the same', () => {
    expect(anchors.length).toBeGreaterThan(40);
    expect(anchors.filter((anchor, index) => anchors.indexOf(anchor) !== index)).toEqual([]);
  });

  it('is cited from the code, the tests and the docs, and every cited anchor exists', () => {
    const citations = files.flatMap((file) =>
      citationsOf(readFileSync(file, 'utf8')).map((citation) => ({
        ...citation,
        file: relative(repositoryRoot, file),
      })),
    );
    expect(citations.length).toBeGreaterThan(40);
    const known = new Set(anchors);
    expect(
      citations
        .filter(({ anchor }) => !known.has(anchor))
        .map(({ file, line, anchor }) => `${file}:${line}: rules.md#${anchor}`),
    ).toEqual([]);
  });

  it(`leaves no ${sectionSign} citation of an outside document`, () => {
    const cited = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          line.includes(sectionSign) ? [`${relative(repositoryRoot, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(cited).toEqual([]);
  });

  it('finds anchors and citations the way the documents write them', () => {
    expect(anchorsOf('<a id="raw-torn-tail"></a>\n### Heading {#zstd-frames}')).toEqual([
      'raw-torn-tail',
      'zstd-frames',
    ]);
    expect(citationsOf('see docs/rules.md#packed-rows and [x](rules.md#envelope); not myrules.md#no')).toEqual([
      { anchor: 'packed-rows', line: 1 },
      { anchor: 'envelope', line: 1 },
    ]);
  });
});
