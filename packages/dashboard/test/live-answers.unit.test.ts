import { LiveAnswers, type RenderedAnswer } from '../src/live-answers';

const answer = (body: string): RenderedAnswer => ({ contentType: 'application/json', body });

describe('LiveAnswers', () => {
  it('given one checkpoint, when the same request comes many times, then it is rendered once and every caller gets the same answer', async () => {
    const answers = new LiveAnswers();
    let renders = 0;
    const render = async () => answer(`body ${(renders += 1)}`);
    const got = await Promise.all(
      Array.from({ length: 300 }, () => answers.answer(() => '5/5', '/api/overview?', render)),
    );
    expect(renders).toBe(1);
    expect(new Set(got.map((one) => one.body))).toEqual(new Set(['body 1']));
  });

  it('given the views moved on, then the request is rendered again', async () => {
    const answers = new LiveAnswers();
    let checkpoint = '5/5';
    let renders = 0;
    const render = async () => answer(`at ${checkpoint} (${(renders += 1)})`);
    expect((await answers.answer(() => checkpoint, 'k', render)).body).toBe('at 5/5 (1)');
    checkpoint = '6/6';
    expect((await answers.answer(() => checkpoint, 'k', render)).body).toBe('at 6/6 (2)');
    expect((await answers.answer(() => checkpoint, 'k', render)).body).toBe('at 6/6 (2)');
  });

  it('given distinct requests, then each has its own answer', async () => {
    const answers = new LiveAnswers();
    const a = await answers.answer(
      () => null,
      '/api/teams?',
      async () => answer('teams'),
    );
    const b = await answers.answer(
      () => null,
      '/api/audit?',
      async () => answer('audit'),
    );
    expect([a.body, b.body]).toEqual(['teams', 'audit']);
  });

  it('given a render that failed, then the next request renders again', async () => {
    const answers = new LiveAnswers();
    await expect(
      answers.answer(
        () => '1/1',
        'k',
        async () => Promise.reject(new Error('no such team')),
      ),
    ).rejects.toThrow('no such team');
    expect(
      (
        await answers.answer(
          () => '1/1',
          'k',
          async () => answer('found'),
        )
      ).body,
    ).toBe('found');
  });

  it('given an answer that finished after the views moved on, then it is not kept for the new checkpoint', async () => {
    const answers = new LiveAnswers();
    let checkpoint = '1/1';
    let finish: (value: RenderedAnswer) => void = () => undefined;
    const first = answers.answer(
      () => checkpoint,
      'k',
      () => new Promise<RenderedAnswer>((resolve) => (finish = resolve)),
    );
    checkpoint = '2/2';
    finish(answer('old'));
    await first;
    expect(
      (
        await answers.answer(
          () => checkpoint,
          'k',
          async () => answer('new'),
        )
      ).body,
    ).toBe('new');
  });

  it('given more distinct requests than its limit, then the ones past it are rendered each time', async () => {
    const answers = new LiveAnswers(1);
    let renders = 0;
    const render = async () => answer(String((renders += 1)));
    await answers.answer(() => null, 'a', render);
    await answers.answer(() => null, 'b', render);
    await answers.answer(() => null, 'b', render);
    await answers.answer(() => null, 'a', render);
    expect(renders).toBe(3);
  });
});
