import { targetOf } from '../src/send-case';

describe('send targets', () => {
  it.each([2, 3, 64])('sends to every other member in turn and never to itself (%i members)', (members) => {
    for (let sender = 0; sender < members; sender += 1) {
      const targets = Array.from({ length: members - 1 }, (_, n) => targetOf(sender, n, members));
      expect(targets).not.toContain(sender);
      expect(new Set(targets).size).toBe(members - 1);
      expect(targetOf(sender, members - 1, members)).toBe(targets[0]);
    }
  });
});
