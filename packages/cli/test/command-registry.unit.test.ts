import { commandList } from '../src/commands/command-list';
import { commandRegistry } from '../src/commands/command-registry';

describe('commandRegistry', () => {
  it('names every command of commandList, in its order', () => {
    expect(commandRegistry.map((entry) => entry.name)).toEqual(commandList.map((command) => command.name));
  });

  it('loads, for each name, the very command commandList holds', async () => {
    const loaded = await Promise.all(commandRegistry.map((entry) => entry.load()));
    loaded.forEach((command, index) => expect(command).toBe(commandList[index]));
  });
});
