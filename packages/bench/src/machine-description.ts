import { cpus, platform, release, totalmem } from 'node:os';

/** The machine a run was measured on, for the report's header. */
export const machineDescription = (): string => {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? 'unknown CPU';
  return `${cores.length} cores (${model}), ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`;
};
